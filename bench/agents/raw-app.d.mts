export declare function handleRawMessage(message: unknown, send: (message: unknown) => boolean, drained: () => Promise<void>): Promise<void>;
