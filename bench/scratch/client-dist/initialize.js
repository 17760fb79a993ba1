// The client half of version negotiation (PROTOCOL §1.2): offer the highest version with that
// version's fields only, then read the answer with the answered version's schema.
import { AcpError } from "@acpkit/core";
import { validateResult } from "@acpkit/schema";
const DEFAULT_CLIENT_INFO = { name: "acpkit-client", version: "0.1.0" };
function isObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
/** `initialize` params for the offered version; never both versions' fields (§3.2). */
export function initializeParams(offer, options) {
    const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    if (offer === 2)
        return { protocolVersion: 2, capabilities: {}, clientInfo };
    return {
        protocolVersion: 1,
        clientCapabilities: {
            fs: { readTextFile: typeof options.fs?.readTextFile === "function", writeTextFile: typeof options.fs?.writeTextFile === "function" },
            terminal: false,
        },
        clientInfo,
    };
}
/** Read the agent's answer; throws AcpError("VersionUnsupported" | "ProtocolViolation"). */
export function readInitializeResult(result) {
    const answered = isObject(result) ? result.protocolVersion : undefined;
    if (answered !== 1 && answered !== 2) {
        throw new AcpError("VersionUnsupported", `The agent answered protocol version ${JSON.stringify(answered)}; this client speaks 1 and 2`, { data: { protocolVersion: answered } });
    }
    const version = answered;
    const checked = validateResult(version, "initialize", result);
    if (!checked.valid) {
        const first = checked.errors[0];
        throw new AcpError("ProtocolViolation", `The agent's initialize result is not valid v${version} at ${first.path || "/"}: ${first.message}`, { data: checked.errors });
    }
    const body = result;
    return {
        protocolVersion: version,
        agentCapabilities: version === 1 ? readV1Capabilities(body.agentCapabilities) : readV2Capabilities(body.capabilities),
        agentInfo: isObject(body.agentInfo) ? body.agentInfo : null,
        authMethods: readAuthMethods(body.authMethods),
    };
}
function readV1Capabilities(raw) {
    const caps = isObject(raw) ? raw : {};
    const prompt = isObject(caps.promptCapabilities) ? caps.promptCapabilities : {};
    const mcp = isObject(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
    return {
        loadSession: caps.loadSession === true,
        prompt: { image: prompt.image === true, audio: prompt.audio === true, embeddedContext: prompt.embeddedContext === true },
        // stdio MCP servers are a v1 baseline every agent supports.
        mcp: { stdio: true, http: mcp.http === true, sse: mcp.sse === true },
        raw: caps,
    };
}
/** v2 markers: present object = supported; absent or null = not (§1.3). */
function readV2Capabilities(raw) {
    const caps = isObject(raw) ? raw : {};
    const session = isObject(caps.session) ? caps.session : {};
    const prompt = isObject(session.prompt) ? session.prompt : {};
    const mcp = isObject(session.mcp) ? session.mcp : {};
    return {
        loadSession: isObject(session.load),
        prompt: { image: isObject(prompt.image), audio: isObject(prompt.audio), embeddedContext: isObject(prompt.embeddedContext) },
        mcp: { stdio: isObject(mcp.stdio), http: isObject(mcp.http), sse: false },
        raw: caps,
    };
}
/** Auth methods in the model shape: v1's untagged agent methods get `type: "agent"`. */
function readAuthMethods(raw) {
    if (!Array.isArray(raw))
        return [];
    return raw.filter(isObject).map((method) => ({ ...method, type: typeof method.type === "string" ? method.type : "agent" }));
}
/** Block types a prompt may carry for this agent: baseline plus capabilities (§1.3). */
export function acceptedPromptBlocks(capabilities) {
    const accepted = new Set(["text", "resource_link"]);
    if (capabilities.prompt.image)
        accepted.add("image");
    if (capabilities.prompt.audio)
        accepted.add("audio");
    if (capabilities.prompt.embeddedContext)
        accepted.add("resource");
    return accepted;
}
//# sourceMappingURL=initialize.js.map