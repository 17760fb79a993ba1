// The page's in-memory files: what a v1 agent wrote through fs/write_text_file (and can read back).
import type { Controller } from "../controller.js";

export function FilesPanel({ controller }: { controller: Controller }) {
  const files = [...controller.files.files];
  if (files.length === 0) return null;
  return (
    <section class="panel" aria-label="files">
      <h2>Files (page memory)</h2>
      {files.map(([path, text]) => (
        <details key={path}>
          <summary>
            <code>{path}</code> ({text.length} chars)
          </summary>
          <pre>{text}</pre>
        </details>
      ))}
    </section>
  );
}
