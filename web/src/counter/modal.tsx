/**
 * A modal dialog (the native `<dialog>`): opened on mount with focus inside it, closed by Escape
 * as by its own "no" button, and focus given back to where it was when it closes.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Modal(props: {
  labelledBy: string;
  describedBy?: string;
  /** `alertdialog` for a question about something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  onClose(): void;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    const element = dialog.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element === null) return undefined;
    if (!element.open) element.showModal();
    // The choice marked `autofocus` (the safe one of a destructive question) takes focus.
    element.querySelector<HTMLElement>('[autofocus]')?.focus();
    const cancel = (event: Event): void => {
      event.preventDefault();
      onClose.current();
    };
    element.addEventListener('cancel', cancel);
    return () => {
      element.removeEventListener('cancel', cancel);
      if (element.open) element.close();
      // Back to the button that opened it, unless something else took focus meanwhile.
      if (before?.isConnected && document.activeElement === document.body) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="card confirm modal"
      role={props.role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
    >
      {props.children}
    </dialog>
  );
}
