// @acpkit/schema: Generated TypeScript types, standalone validators and the method registry for ACP v1 and v2.
export {};
