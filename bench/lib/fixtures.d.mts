// Types for fixtures.mjs (plain JS so agent child processes need no TypeScript loader).
export declare const SESSION_ID: string;
export declare function sessionIds(): () => string;
export declare const MESSAGE_ID: string;
export declare const CHUNK_LENGTH: number;
export declare function chunkText(i: number): string;
export declare function chunkUpdate(i: number): { sessionUpdate: "agent_message_chunk"; messageId: string; content: { type: "text"; text: string } };
export declare function streamPrompt(n: number): string;
export declare function parseStreamCount(text: string | undefined): number;
