// The prompt: text with the agent's commands as a slash menu, one optional file attachment (as an
// embedded resource or a resource_link), Send, and Cancel while a turn runs.
import { useState } from "preact/hooks";
import type { ContentBlock } from "@acpkit/client";
import type { Controller, SessionView } from "../controller.js";

/** Largest file the page embeds in a prompt. */
const MAX_ATTACHMENT_BYTES = 1024 * 1024;

export function PromptBox({ controller, view }: { controller: Controller; view: SessionView }) {
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | undefined>(undefined);
  const [as, setAs] = useState<"resource" | "resource_link">("resource");
  const state = controller.stateOf(view);
  const running = view.turnRunning;
  const commands = state?.availableCommands ?? [];
  const typed = /^\/(\S*)$/.exec(text)?.[1];
  const menu = typed === undefined ? [] : commands.filter((command) => command.name.startsWith(typed));

  const send = async () => {
    let attachment: ContentBlock | undefined;
    if (file !== undefined) {
      const uri = `file:///${encodeURIComponent(file.name)}`;
      if (as === "resource_link") attachment = { type: "resource_link", uri, name: file.name, size: file.size } as ContentBlock;
      else {
        if (file.size > MAX_ATTACHMENT_BYTES)
          return controller.fail(`${file.name} is ${file.size} bytes; the page embeds at most ${MAX_ATTACHMENT_BYTES} (attach it as a resource_link)`);
        attachment = { type: "resource", resource: { uri, text: await file.text(), mimeType: file.type || "text/plain" } } as ContentBlock;
      }
    }
    controller.prompt(text, attachment);
    setText("");
    setFile(undefined);
  };

  return (
    <div class="prompt-box">
      {menu.length > 0 && (
        <ul class="slash-menu" data-testid="slash-menu">
          {menu.map((command) => (
            <li key={command.name}>
              <button type="button" class="link" onClick={() => setText(`/${command.name} `)}>
                /{command.name}
              </button>{" "}
              <span class="hint">{command.description}</span>
            </li>
          ))}
        </ul>
      )}
      <textarea
        data-testid="prompt-input"
        rows={3}
        placeholder="Prompt (type / for the agent's commands; Ctrl+Enter sends)"
        value={text}
        onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !running) void send();
        }}
      />
      <div class="row">
        <label class="attach">
          Attach <input type="file" data-testid="attach" onChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0])} />
        </label>
        <select value={as} onChange={(event) => setAs((event.currentTarget as HTMLSelectElement).value as typeof as)} aria-label="attach as">
          <option value="resource">as resource</option>
          <option value="resource_link">as resource_link</option>
        </select>
        {running ? (
          <button type="button" class="danger" data-testid="cancel" onClick={() => void controller.cancel()}>
            Cancel
          </button>
        ) : (
          <button type="button" class="primary" data-testid="send" onClick={() => void send()}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}
