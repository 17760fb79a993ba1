/** v2: updates and requests already have the model shape. */
export class V2ClientSessionWire {
    sessionId;
    version = 2;
    constructor(sessionId) {
        this.sessionId = sessionId;
    }
    receiveUpdate(update, apply) {
        apply(update);
    }
    permissionFromWire(params) {
        return params;
    }
    promptParams(prompt, meta) {
        return meta === undefined ? { sessionId: this.sessionId, prompt } : { sessionId: this.sessionId, prompt, _meta: meta };
    }
    promptOutcome(result) {
        return result;
    }
}
//# sourceMappingURL=session-wire.js.map