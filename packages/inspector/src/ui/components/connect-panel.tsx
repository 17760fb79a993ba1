// Connect: the protocol version and the client capabilities to offer, then `initialize`; once
// connected, what the agent said about itself and its login methods.
import type { Controller, ClientToggles } from "../controller.js";

const TOGGLES: [keyof ClientToggles, string][] = [
  ["fsRead", "fs read"],
  ["fsWrite", "fs write"],
  ["terminal", "terminal"],
  ["elicitation", "elicitation"],
];

export function ConnectPanel({ controller }: { controller: Controller }) {
  const connection = controller.connection;
  const busy = controller.status === "connecting" || controller.status === "connected";
  return (
    <section class="panel" aria-label="connect">
      <h2>Connect</h2>
      <label>
        Protocol{" "}
        <select
          data-testid="protocol"
          disabled={busy}
          value={String(controller.protocolVersion)}
          onChange={(event) => {
            controller.protocolVersion = (event.currentTarget as HTMLSelectElement).value === "1" ? 1 : 2;
            controller.changed();
          }}
        >
          <option value="1">v1</option>
          <option value="2">v2</option>
        </select>
      </label>
      <fieldset disabled={busy}>
        <legend>Client capabilities</legend>
        {TOGGLES.map(([key, label]) => (
          <label key={key} class="toggle">
            <input
              type="checkbox"
              data-testid={`cap-${key}`}
              checked={controller.toggles[key]}
              onChange={(event) => {
                controller.toggles = { ...controller.toggles, [key]: (event.currentTarget as HTMLInputElement).checked };
                controller.changed();
              }}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {controller.status === "connected" ? (
        <button type="button" onClick={() => void controller.disconnect()}>
          Disconnect
        </button>
      ) : (
        <button type="button" class="primary" data-testid="initialize" disabled={controller.status === "connecting"} onClick={() => void controller.connect()}>
          Initialize
        </button>
      )}
      {connection !== undefined && (
        <div class="agent-facts" data-testid="agent-info">
          <div>
            <strong>{connection.agentInfo?.title ?? connection.agentInfo?.name ?? "(agent sent no agentInfo)"}</strong> {connection.agentInfo?.version} ·
            protocol v{connection.protocolVersion}
            {connection.dialect === "v2-later" ? " (the later v2 draft)" : ""}
          </div>
          <details>
            <summary>Capabilities</summary>
            <pre>{JSON.stringify(connection.agentCapabilities, null, 2)}</pre>
          </details>
          {connection.authMethods.length > 0 && (
            <div class="auth">
              Login methods:
              {connection.authMethods.map((method) => (
                <button type="button" key={method.id} title={method.description ?? ""} onClick={() => void controller.authenticate(method.id)}>
                  Authenticate: {method.name}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
