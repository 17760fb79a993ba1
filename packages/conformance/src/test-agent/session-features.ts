// What the built-in agent offers beyond the prompt turn: two modes, a select config option, an
// authentication method, and the slash commands it announces. Kept apart from the commands so a
// client under test sees the same session setup however it drives the agent.
import type { AgentAuthMethod, ConfigOption, SessionModes } from "@acpkit/agent";

/** Two modes; "ask" is where every session starts. */
export const BUILTIN_MODES: SessionModes = {
  currentModeId: "ask",
  availableModes: [
    { id: "ask", name: "Ask", description: "Answers without changing anything" },
    { id: "code", name: "Code", description: "Proposes edits and asks permission for them" },
  ],
};

/** One select option: which (pretend) model answers. */
export const BUILTIN_CONFIG_OPTIONS: readonly ConfigOption[] = [
  {
    type: "select",
    id: "model",
    name: "Model",
    description: "Which model answers (the built-in agent only pretends)",
    category: "model",
    currentValue: "standard",
    options: [
      { value: "standard", name: "Standard" },
      { value: "thorough", name: "Thorough" },
    ],
  },
];

/** An authentication method that accepts everyone, so clients can exercise authenticate and logout. */
export const BUILTIN_AUTH_METHODS: readonly AgentAuthMethod[] = [{ id: "test-login", name: "Test login", description: "Accepts anyone; for testing clients" }];
