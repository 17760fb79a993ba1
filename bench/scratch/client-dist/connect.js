// connectAgent: initialize (offer the highest version, accept the answer), then route the agent's
// session/update notifications and requests to the ClientSession they belong to.
import { AcpError, Connection, ErrorCode, RpcError } from "@acpkit/core";
import { acceptedPromptBlocks, initializeParams, readInitializeResult } from "./initialize.js";
import { ClientSession } from "./session.js";
import { V2ClientSessionWire } from "./session-wire.js";
import { V1ClientSessionWire, mcpServersForV1 } from "./v1-wire.js";
class AgentConnectionImpl {
    connection;
    options;
    listeners;
    protocolVersion;
    agentCapabilities;
    agentInfo;
    authMethods;
    acceptedPromptBlocks;
    requestPermission;
    sessions = new Map();
    sessionsBeingCreated = 0;
    parked = [];
    constructor(connection, description, options, listeners) {
        this.connection = connection;
        this.options = options;
        this.listeners = listeners;
        this.protocolVersion = description.protocolVersion;
        this.agentCapabilities = description.agentCapabilities;
        this.agentInfo = description.agentInfo;
        this.authMethods = description.authMethods;
        this.acceptedPromptBlocks = acceptedPromptBlocks(description.agentCapabilities);
        this.requestPermission = options.requestPermission;
        this.registerHandlers();
        void connection.closed.then(() => {
            for (const session of this.sessions.values())
                session.connectionClosed();
        });
    }
    get closed() {
        return this.connection.closed;
    }
    report(diagnostic) {
        for (const listener of this.listeners) {
            try {
                listener(diagnostic);
            }
            catch {
                // Observers' failures are theirs.
            }
        }
    }
    onDiagnostic(listener) {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }
    async authenticate(methodId) {
        await this.connection.request("authenticate", { methodId });
    }
    async newSession(options) {
        const params = this.setupParams(options);
        this.sessionsBeingCreated++;
        try {
            const result = await this.connection.request("session/new", params);
            const session = this.createSession(result.sessionId);
            this.sessions.set(session.sessionId, session);
            this.releaseParked(session);
            return session;
        }
        finally {
            this.sessionsBeingCreated--;
            this.dropParkedIfIdle();
        }
    }
    async loadSession(options) {
        if (!this.agentCapabilities.loadSession) {
            throw new AcpError("Unsupported", "The agent did not advertise session loading (v1 loadSession / v2 session.load)");
        }
        if (this.sessions.has(options.sessionId)) {
            throw new AcpError("ProtocolViolation", `Session ${options.sessionId} is already open on this connection`);
        }
        // The replay arrives before the response, so the session must be routable first.
        const session = this.createSession(options.sessionId);
        this.sessions.set(options.sessionId, session);
        session.beginLoad();
        try {
            await this.connection.request("session/load", { ...this.setupParams(options), sessionId: options.sessionId });
            return session;
        }
        catch (error) {
            this.sessions.delete(options.sessionId);
            throw error;
        }
    }
    close(reason) {
        return this.connection.close(reason);
    }
    setupParams(options) {
        const servers = options.mcpServers ?? [];
        const params = {
            cwd: options.cwd,
            mcpServers: this.protocolVersion === 1 ? mcpServersForV1(servers, this.lossyOptions()) : servers,
        };
        if (options._meta !== undefined)
            params._meta = options._meta;
        return params;
    }
    lossyOptions() {
        return {
            strict: this.options.strictBridge === true,
            onLossy: (event) => this.report({ code: `lossy_${event.code}`, message: event.detail, sessionId: event.sessionId, detail: event.update }),
        };
    }
    createSession(sessionId) {
        const wire = this.protocolVersion === 2 ? new V2ClientSessionWire(sessionId) : new V1ClientSessionWire(sessionId, this.lossyOptions());
        return new ClientSession(this, sessionId, wire);
    }
    registerHandlers() {
        const connection = this.connection;
        connection.onNotification("session/update", (params) => {
            const session = this.sessions.get(params.sessionId);
            if (session)
                return session.receiveUpdate(params.update);
            if (this.sessionsBeingCreated > 0) {
                // Sent right after a session/new answer we have not finished processing: keep it.
                this.parked.push({ sessionId: params.sessionId, update: params.update });
                return;
            }
            this.report({ code: "unknown_session", message: `Dropped a session/update for unknown session ${params.sessionId}`, sessionId: params.sessionId, detail: params.update });
        });
        connection.onRequest("session/request_permission", (params, ctx) => this.requireSession(params.sessionId).handlePermission(params, ctx));
        if (this.protocolVersion === 1)
            this.registerFileSystem();
    }
    registerFileSystem() {
        const fs = this.options.fs;
        if (typeof fs?.readTextFile === "function") {
            const read = fs.readTextFile.bind(fs);
            this.connection.onRequest("fs/read_text_file", async (params) => {
                this.requireSession(params.sessionId);
                return { content: await read(params) };
            });
        }
        if (typeof fs?.writeTextFile === "function") {
            const write = fs.writeTextFile.bind(fs);
            this.connection.onRequest("fs/write_text_file", async (params) => {
                this.requireSession(params.sessionId);
                await write(params);
                return {};
            });
        }
    }
    requireSession(sessionId) {
        const session = this.sessions.get(sessionId);
        if (!session)
            throw new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
        return session;
    }
    releaseParked(session) {
        if (this.parked.length === 0)
            return;
        const rest = [];
        for (const entry of this.parked) {
            if (entry.sessionId === session.sessionId)
                session.receiveUpdate(entry.update);
            else
                rest.push(entry);
        }
        this.parked = rest;
    }
    dropParkedIfIdle() {
        if (this.sessionsBeingCreated > 0 || this.parked.length === 0)
            return;
        for (const entry of this.parked) {
            this.report({ code: "unknown_session", message: `Dropped a session/update for unknown session ${entry.sessionId}`, sessionId: entry.sessionId, detail: entry.update });
        }
        this.parked = [];
    }
}
/**
 * Connect to an agent over `transport`: sends `initialize` offering `options.protocolVersion`
 * (default 1) and resolves once the agent answered with a version this client speaks (1 or 2).
 * Any other answer closes the connection and rejects with AcpError "VersionUnsupported".
 */
export async function connectAgent(transport, options = {}) {
    const offer = options.protocolVersion ?? 1;
    if (offer !== 1 && offer !== 2)
        throw new AcpError("VersionUnsupported", `connectAgent: cannot offer protocol version ${JSON.stringify(offer)}; this client speaks 1 and 2`);
    const connection = new Connection(transport, {
        side: "client",
        ...(options.validateOutgoing === undefined ? {} : { validateOutgoing: options.validateOutgoing }),
    });
    const listeners = new Set();
    if (options.onDiagnostic)
        listeners.add(options.onDiagnostic);
    connection.onDiagnostic((diagnostic) => {
        for (const listener of listeners) {
            try {
                listener(diagnostic);
            }
            catch {
                // Observers' failures are theirs.
            }
        }
    });
    let description;
    try {
        const result = await connection.request("initialize", initializeParams(offer, options), options.signal ? { signal: options.signal } : undefined);
        description = readInitializeResult(result);
        connection.setVersion(description.protocolVersion);
    }
    catch (error) {
        await connection.close(error instanceof Error ? error.message : "initialize failed");
        throw error;
    }
    return new AgentConnectionImpl(connection, description, options, listeners);
}
//# sourceMappingURL=connect.js.map