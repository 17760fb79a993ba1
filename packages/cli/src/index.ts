// @acpkit/cli: The acpkit command: demo, run, agent, validate, bridge.
export {};
