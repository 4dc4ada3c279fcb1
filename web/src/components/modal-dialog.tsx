/**
 * A modal dialog (the native `dialog` element): shown when mounted, closed when unmounted. Focus
 * moves into it and, when it closes, back to where it was; Escape calls `onCancel`.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function ModalDialog(props: {
  labelledBy: string;
  describedBy?: string;
  class?: string;
  role?: 'dialog' | 'alertdialog';
  /** Where focus goes when the dialog closes, instead of back to where it was. */
  focusAfter?: (() => HTMLElement | null) | undefined;
  onCancel(): void;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const focusAfter = useRef(props.focusAfter);
  focusAfter.current = props.focusAfter;
  useEffect(() => {
    const before = document.activeElement;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      element?.close();
      const target = focusAfter.current?.() ?? before;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class={`modal ${props.class ?? ''}`}
      role={props.role}
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      {props.children}
    </dialog>
  );
}
