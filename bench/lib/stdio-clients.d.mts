// Types for stdio-clients.mjs.
export interface StdioBenchClient {
  request(method: string, params: unknown): Promise<any>;
  close(): Promise<unknown>;
}
export declare function startRawClient(agentArgv: readonly string[]): StdioBenchClient;
export declare function startOfficialClient(agentArgv: readonly string[]): Promise<StdioBenchClient>;
export declare function coldStartTurn(client: StdioBenchClient): Promise<void>;
