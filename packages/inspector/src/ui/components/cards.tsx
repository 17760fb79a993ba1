// The agent's open questions: a permission request as a card with one button per option, an
// elicitation as a form built from its schema (or, for a URL elicitation, the link, when it is a
// web address). Cancelling the turn answers them "cancelled" (the client does that; the cards then
// disappear).
import { useState } from "preact/hooks";
import type { ElicitationResult, FormElicitationRequest, UrlElicitationRequest } from "@acpkit/client";
import type { Controller, ElicitationCard } from "../controller.js";
import { webLinkOf } from "../web-link.js";

export function Cards({ controller }: { controller: Controller }) {
  const view = controller.currentSession;
  const toolCalls = view === undefined ? [] : (controller.stateOf(view)?.toolCalls ?? []);
  // A permission request may carry only the tool call's id; its title is in the session state.
  const titleOf = (toolCall: { toolCallId: string; title?: string | null }) =>
    toolCall.title ?? toolCalls.find((known) => known.toolCallId === toolCall.toolCallId)?.title ?? toolCall.toolCallId;
  return (
    <div class="cards">
      {controller.permissions.map((card) => (
        <div key={card.id} class="card permission" data-testid="permission-card">
          <div>
            The agent asks permission: <strong>{titleOf(card.request.toolCall)}</strong>
          </div>
          <div class="row">
            {card.request.options.map((option) => (
              <button
                type="button"
                key={option.optionId}
                class={`option-${option.kind}`}
                data-option-id={option.optionId}
                data-kind={option.kind}
                onClick={() => card.answer({ outcome: "selected", optionId: option.optionId })}
              >
                {option.name}
              </button>
            ))}
          </div>
        </div>
      ))}
      {controller.elicitations.map((card) => (
        <Elicitation key={card.id} card={card} />
      ))}
    </div>
  );
}

type Property = { type?: string; title?: string; description?: string; enum?: string[]; default?: unknown; oneOf?: { const: string; title?: string }[] };

function Elicitation({ card }: { card: ElicitationCard }) {
  const request = card.request;
  return request.mode === "url" ? <UrlCard card={card} request={request} /> : <FormCard card={card} request={request} />;
}

function FormCard({ card, request }: { card: ElicitationCard; request: FormElicitationRequest }) {
  const schema = request.requestedSchema as unknown as { properties?: Record<string, Property>; required?: string[] };
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const [values, setValues] = useState<Record<string, unknown>>(() => {
    const initial: Record<string, unknown> = {};
    for (const [name, property] of properties) if (property.default !== undefined) initial[name] = property.default;
    return initial;
  });
  const set = (name: string, value: unknown) => setValues({ ...values, [name]: value });
  return (
    <form
      class="card elicitation"
      data-testid="elicitation-card"
      onSubmit={(event) => {
        event.preventDefault();
        card.answer({ action: "accept", content: values } as ElicitationResult);
      }}
    >
      <div>{request.message}</div>
      {properties.map(([name, property]) => (
        <div key={name} class="field">
          <label for={`elicit-${card.id}-${name}`}>
            {property.title ?? name}
            {required.has(name) ? " *" : ""}
          </label>
          <Field
            id={`elicit-${card.id}-${name}`}
            property={property}
            value={values[name]}
            required={required.has(name)}
            onChange={(value) => set(name, value)}
            name={name}
          />
          {property.description !== undefined && <span class="hint">{property.description}</span>}
        </div>
      ))}
      <div class="row">
        <button type="submit" class="primary">
          Accept
        </button>
        <button type="button" onClick={() => card.answer({ action: "decline" } as ElicitationResult)}>
          Decline
        </button>
        <button type="button" onClick={() => card.answer({ action: "cancel" } as ElicitationResult)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Field({
  id,
  property,
  value,
  required,
  onChange,
  name,
}: {
  id: string;
  property: Property;
  value: unknown;
  required: boolean;
  onChange: (value: unknown) => void;
  name: string;
}) {
  const choices =
    property.enum?.map((item) => ({ value: item, title: item })) ?? property.oneOf?.map((item) => ({ value: item.const, title: item.title ?? item.const }));
  if (choices !== undefined) {
    return (
      <select
        id={id}
        name={name}
        required={required}
        value={value === undefined ? "" : String(value)}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        <option value="">—</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.title}
          </option>
        ))}
      </select>
    );
  }
  if (property.type === "boolean") {
    return (
      <input id={id} name={name} type="checkbox" checked={value === true} onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)} />
    );
  }
  if (property.type === "number" || property.type === "integer") {
    return (
      <input
        id={id}
        name={name}
        type="number"
        step={property.type === "integer" ? 1 : "any"}
        required={required}
        value={value === undefined ? "" : String(value)}
        onInput={(event) => {
          const text = (event.currentTarget as HTMLInputElement).value;
          onChange(text === "" ? undefined : Number(text));
        }}
      />
    );
  }
  return (
    <input
      id={id}
      name={name}
      required={required}
      value={value === undefined ? "" : String(value)}
      onInput={(event) => onChange((event.currentTarget as HTMLInputElement).value)}
    />
  );
}

function UrlCard({ card, request }: { card: ElicitationCard; request: UrlElicitationRequest }) {
  const link = webLinkOf(request.url);
  return (
    <div class="card elicitation" data-testid="elicitation-card">
      <div>{request.message}</div>
      {link !== undefined ? (
        <a href={link} target="_blank" rel="noreferrer noopener">
          {request.url}
        </a>
      ) : (
        <div class="refused-link" data-testid="refused-link">
          <code>{request.url}</code> is not an http or https address, so it is not a link here.
        </div>
      )}
      <div class="row">
        <button type="button" class="primary" onClick={() => card.answer({ action: "accept" } as ElicitationResult)}>
          Done
        </button>
        <button type="button" onClick={() => card.answer({ action: "decline" } as ElicitationResult)}>
          Decline
        </button>
      </div>
    </div>
  );
}
