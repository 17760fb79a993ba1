// The count behind ACPKIT-RPC-009 and ACPKIT-CLIENT-RPC-003 (src/check/answer-count.ts): a second
// answer is found, an answer to a reused id is not one, batches count entry by entry.
import { describe, expect, it } from "vitest";
import { RequestCount } from "../src/answer-count.js";

const line = (value: unknown) => ({ text: JSON.stringify(value), value });
const request = (id: unknown) => ({ jsonrpc: "2.0", id, method: "m", params: {} });
const answer = (id: unknown) => ({ jsonrpc: "2.0", id, result: {} });

describe("RequestCount", () => {
  it("finds the first answer beyond the requests sent with its id", () => {
    const sent = new RequestCount();
    sent.add(request(1));
    sent.add(request("a"));
    expect(sent.firstRepeatedAnswer([line(answer("a")), line(answer(1))])).toBeUndefined();
    expect(sent.firstRepeatedAnswer([line(answer(1)), line(answer("a")), line(answer(1))])).toEqual({
      id: "1",
      answers: 2,
      sent: 1,
      text: JSON.stringify(answer(1)),
    });
  });

  it('lets an id sent twice be answered twice, and tells 1 from "1"', () => {
    const sent = new RequestCount();
    sent.add(request(7));
    sent.add(request(7));
    sent.add(request("7"));
    expect(sent.firstRepeatedAnswer([line(answer(7)), line(answer(7)), line(answer("7"))])).toBeUndefined();
    expect(sent.firstRepeatedAnswer([line(answer(7)), line(answer(7)), line(answer(7))])?.answers).toBe(3);
  });

  it("counts batch entries, and ignores notifications, id null and ids never sent", () => {
    const sent = new RequestCount();
    sent.add([request(1), request(2), { jsonrpc: "2.0", method: "n" }]);
    sent.add(undefined); // a line that was not JSON
    const lines = [
      line([answer(2), answer(1)]),
      line({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
      line({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
      line(answer(99)),
      line(answer(99)),
      line({ jsonrpc: "2.0", method: "n" }),
    ];
    expect(sent.firstRepeatedAnswer(lines)).toBeUndefined();
    expect(sent.firstRepeatedAnswer([...lines, line([answer(1)])])).toMatchObject({ id: "1", answers: 2, sent: 1 });
  });
});
