// Types for validators.mjs.
import type { ImplName } from "./impl.js";

export type ParamsValidator = (params: unknown) => boolean;
export declare function loadValidator(impl: ImplName): Promise<ParamsValidator>;
