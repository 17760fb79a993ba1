import * as TJS from "typescript-json-schema";
const program = TJS.getProgramFromFiles(["/tmp/gen/fixture/types.ts"], { strictNullChecks: true, skipLibCheck: true });
const gen = TJS.buildGenerator(program, { required: true, ignoreErrors: true, strictNullChecks: true });
for (const n of ["StopReason","Role","ContentBlock","ContentBlockText","SessionUpdateUnknown","Annotations","Meta"]) console.log(n, JSON.stringify(gen!.getSchemaForSymbol(n)).slice(0,600));
