import { measureValidate } from "../lib/validate-measure.ts";
console.log(await measureValidate("acpkit", 10000), await measureValidate("official", 10000));
