// The session's settings: its mode and config options as selectors, its title and usage.
import type { Controller, SessionView } from "../controller.js";

export function SessionBar({ controller, view, readOnly }: { controller: Controller; view: SessionView; readOnly: boolean }) {
  const state = controller.stateOf(view);
  if (state === undefined) return null;
  const modes = state.modes;
  const usage = state.usage;
  return (
    <div class="session-bar">
      <span class="session-title" data-testid="session-title">
        {state.sessionInfo.title ?? view.sessionId}
      </span>
      {modes !== undefined && (
        <label>
          Mode{" "}
          <select
            data-testid="mode-select"
            disabled={readOnly}
            value={modes.currentModeId}
            onChange={(event) => void controller.setMode((event.currentTarget as HTMLSelectElement).value)}
          >
            {modes.availableModes.map((mode) => (
              <option key={mode.id} value={mode.id} title={mode.description ?? ""}>
                {mode.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {state.configOptions.map((option) => {
        const raw = option as unknown as { id: string; name: string; type: string; currentValue: unknown; options?: unknown[] };
        if (raw.type === "boolean") {
          return (
            <label key={raw.id}>
              <input
                type="checkbox"
                disabled={readOnly}
                checked={raw.currentValue === true}
                onChange={(event) => void controller.setConfigOption(raw.id, (event.currentTarget as HTMLInputElement).checked)}
              />{" "}
              {raw.name}
            </label>
          );
        }
        const choices = flattenChoices(raw.options ?? []);
        return (
          <label key={raw.id}>
            {raw.name}{" "}
            <select
              data-testid={`config-${raw.id}`}
              disabled={readOnly}
              value={String(raw.currentValue)}
              onChange={(event) => void controller.setConfigOption(raw.id, (event.currentTarget as HTMLSelectElement).value)}
            >
              {choices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.name}
                </option>
              ))}
            </select>
          </label>
        );
      })}
      {usage !== null && (
        <span class="usage" data-testid="usage">
          context {usage.used.toLocaleString()} / {usage.size.toLocaleString()}
          {usage.cost ? ` · ${usage.cost.amount} ${usage.cost.currency}` : ""}
        </span>
      )}
    </div>
  );
}

/** Select options come flat or in groups; the selector shows them flat. */
function flattenChoices(options: unknown[]): { value: string; name: string }[] {
  const out: { value: string; name: string }[] = [];
  for (const entry of options) {
    const item = entry as { value?: string; name?: string; options?: unknown[] };
    if (Array.isArray(item.options)) out.push(...flattenChoices(item.options));
    else if (typeof item.value === "string") out.push({ value: item.value, name: item.name ?? item.value });
  }
  return out;
}
