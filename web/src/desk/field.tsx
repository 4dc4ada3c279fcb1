/**
 * Labelled form controls that show the service's violations for their JSON pointer: the message
 * under the control, tied to it by `aria-describedby`, and `aria-invalid` set. Plausibility
 * warnings (not violations) show under the control too, once the person has left it, and do not
 * mark it invalid.
 */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';
import { controlId } from './violations.js';
import type { Violations } from './violations.js';

interface Common {
  pointer: string;
  label: string;
  violations: Violations;
  required?: boolean | undefined;
  class?: string;
  /** Plausibility warnings, in the page's language. */
  warnings?: readonly string[] | undefined;
  /** What the field is for, under its label, in the page's language. */
  hint?: string | undefined;
}

function Messages(props: { id: string; messages: readonly string[] }) {
  if (props.messages.length === 0) return null;
  return (
    <p class="field-error" id={props.id}>
      {props.messages.join('; ')}
    </p>
  );
}

function Warnings(props: { id: string; warnings: readonly string[] }) {
  if (props.warnings.length === 0) return null;
  return (
    <p class="field-warning" id={props.id} role="status">
      {props.warnings.join(' ')}
    </p>
  );
}

// Warnings wait while the person types in the field (a half-typed GLN is no wrong GLN) and show
// when focus leaves it; values the person did not type show theirs at once.
function useShownWarnings(warnings: readonly string[] | undefined) {
  const [typing, setTyping] = useState(false);
  return {
    shown: typing ? [] : (warnings ?? []),
    onInput: () => setTyping(true),
    onFocusOut: () => setTyping(false),
  };
}

function Shell(props: Common & { children: ComponentChildren; shownWarnings: readonly string[] }) {
  const { t } = useI18n();
  const id = controlId(props.pointer);
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label for={id}>
        {props.label}
        {/* The control's aria-required says it to assistive technology; the star is visual. */}
        {props.required && (
          <span class="required" aria-hidden="true" title={t('desk.required')}>
            {' *'}
          </span>
        )}
      </label>
      {props.hint !== undefined && (
        <p class="muted small" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children}
      <Messages id={`${id}-error`} messages={props.violations.at(props.pointer)} />
      <Warnings id={`${id}-warning`} warnings={props.shownWarnings} />
    </div>
  );
}

/** Accessibility attributes of the control for `pointer`. */
function controlAttributes(
  pointer: string,
  violations: Violations,
  required?: boolean,
  warned = false,
  hinted = false,
) {
  const id = controlId(pointer);
  const invalid = violations.at(pointer).length > 0;
  const describedBy = [
    hinted && `${id}-hint`,
    invalid && `${id}-error`,
    warned && `${id}-warning`,
  ].filter(Boolean);
  return {
    id,
    // The form finds a control's field by it (a browser control holding text it cannot read).
    'data-pointer': pointer,
    'aria-invalid': invalid ? ('true' as const) : undefined,
    'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
    'aria-required': required ? ('true' as const) : undefined,
  };
}

type InputKind = 'text' | 'date' | 'number' | 'email' | 'tel';

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role' | 'list'>;

// Preact types each input `type` separately, so a `type` held in a variable does not type-check:
// one literal per branch does.
function Input(props: { kind: InputKind; attributes: InputAttributes }) {
  const a = props.attributes;
  switch (props.kind) {
    case 'date':
      return <input type="date" {...a} />;
    case 'number':
      return <input type="number" {...a} />;
    case 'email':
      return <input type="email" {...a} />;
    case 'tel':
      return <input type="tel" {...a} />;
    default:
      return <input type="text" {...a} />;
  }
}

export function TextField(
  props: Common & {
    value: string;
    onValue(value: string): void;
    type?: InputKind | undefined;
    inputMode?: 'numeric' | 'decimal' | 'text' | 'email' | 'tel' | undefined;
    autoComplete?: string;
    maxLength?: number | undefined;
    min?: number;
    max?: number;
    step?: number | 'any';
  },
) {
  const warnings = useShownWarnings(props.warnings);
  return (
    <Shell {...props} shownWarnings={warnings.shown}>
      <Input
        kind={props.type ?? 'text'}
        attributes={{
          ...controlAttributes(
            props.pointer,
            props.violations,
            props.required,
            warnings.shown.length > 0,
            props.hint !== undefined,
          ),
          inputMode: props.inputMode,
          autoComplete: props.autoComplete ?? 'off',
          maxLength: props.maxLength,
          min: props.min,
          max: props.max,
          step: props.step,
          value: props.value,
          onInput: (e) => {
            warnings.onInput();
            props.onValue(e.currentTarget.value);
          },
          onBlur: warnings.onFocusOut,
        }}
      />
    </Shell>
  );
}

export function TextArea(props: Common & { value: string; onValue(value: string): void }) {
  return (
    <Shell {...props} shownWarnings={props.warnings ?? []}>
      <textarea
        {...controlAttributes(props.pointer, props.violations, props.required)}
        rows={3}
        value={props.value}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
    </Shell>
  );
}

export function SelectField(
  props: Common & {
    value: string;
    onValue(value: string): void;
    options: readonly { value: string; label: string }[];
  },
) {
  return (
    <Shell {...props} shownWarnings={props.warnings ?? []}>
      <select
        {...controlAttributes(props.pointer, props.violations, props.required)}
        value={props.value}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

export function CheckField(
  props: Common & { checked: boolean; onChecked(checked: boolean): void },
) {
  const id = controlId(props.pointer);
  return (
    <div class={`field check ${props.class ?? ''}`}>
      <input
        {...controlAttributes(props.pointer, props.violations)}
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChecked(e.currentTarget.checked)}
      />
      <label for={id}>{props.label}</label>
      <Messages id={`${id}-error`} messages={props.violations.at(props.pointer)} />
    </div>
  );
}
