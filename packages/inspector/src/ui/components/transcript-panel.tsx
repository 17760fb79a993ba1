// Transcripts: export the wire as ndjson with →/← markers (what `acpkit validate` reads), import
// one to replay it into the same views without an agent.
import type { Controller } from "../controller.js";
import { MAX_IMPORT_BYTES } from "../replay.js";

export function TranscriptPanel({ controller }: { controller: Controller }) {
  const download = () => {
    const text = controller.exportTranscript();
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `acpkit-transcript-${new Date().toISOString().replace(/[:.]/g, "-")}.ndjson`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <section class="panel" aria-label="transcript">
      <h2>Transcript</h2>
      <div class="row">
        <button type="button" data-testid="export" onClick={download}>
          Export ndjson
        </button>
        <label class="attach">
          Import{" "}
          <input
            type="file"
            accept=".ndjson,.jsonl,.json,.txt"
            data-testid="import"
            onChange={async (event) => {
              const input = event.currentTarget as HTMLInputElement;
              const file = input.files?.[0];
              input.value = "";
              if (file === undefined) return;
              if (file.size > MAX_IMPORT_BYTES) return controller.fail(`${file.name} is ${file.size} bytes; the page imports at most ${MAX_IMPORT_BYTES}`);
              controller.importTranscript(await file.text());
            }}
          />
        </label>
      </div>
    </section>
  );
}
