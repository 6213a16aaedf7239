/**
 * The app's toast (docs/product/admin.md ADM13): success, error or info; shown for 4 s by
 * default, then a 0.3 s slide-out. One provider at the top of the app (App.tsx) holds the stack; any component
 * shows one with `useToast()`:
 *   const toast = useToast();
 *   toast.show({ type: 'success', message: 'Configuration updated successfully' });
 * Errors are announced at once (role=alert), the others politely (role=status).
 */
import {
  Suspense,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { AlertIcon, CheckIcon, CloseIcon, SparkIcon } from '../Icons.tsx';
import './overlays.css';
import { useCatalog, useT } from '../../i18n/i18n.ts';

export type ToastType = 'success' | 'error' | 'info';
export const TOAST_DEFAULT_MS = 4000;
export const TOAST_SLIDE_OUT_MS = 300;

export interface ToastInput {
  type?: ToastType;
  message: ReactNode;
  /** bold text before the message */
  title?: string;
  durationMs?: number;
  testId?: string;
}
export interface ToastApi {
  show(input: ToastInput): number;
  dismiss(id: number): void;
  success(message: ReactNode): number;
  error(message: ReactNode): number;
  info(message: ReactNode): number;
}
interface ToastItem extends ToastInput {
  id: number;
  leaving: boolean;
}

const ToastContext = createContext<ToastApi | null>(null);

/** The toast API of the surrounding ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a <ToastProvider> above it (App.tsx)');
  return api;
}

const ICONS: Record<ToastType, ReactNode> = {
  success: <CheckIcon size={16} />,
  error: <AlertIcon size={16} />,
  info: <SparkIcon size={16} />,
};

function ToastView({ item, onLeave }: { item: ToastItem; onLeave(id: number): void }) {
  const type = item.type ?? 'info';
  useEffect(() => {
    const t = setTimeout(() => onLeave(item.id), item.durationMs ?? TOAST_DEFAULT_MS);
    return () => clearTimeout(t);
  }, [item.id, item.durationMs, onLeave]);
  return (
    <div
      className={`app-toast app-toast-${type}${item.leaving ? ' leaving' : ''}`}
      role={type === 'error' ? 'alert' : 'status'}
      data-testid={item.testId ?? 'toast'}
      data-type={type}
    >
      <span className="app-toast-icon" aria-hidden="true">
        {ICONS[type]}
      </span>
      <span className="app-toast-text">
        {item.title && <strong>{item.title} </strong>}
        {item.message}
      </span>
      {/* its label comes with the roomside catalog; only this button waits for it (toasts show on every page) */}
      <Suspense fallback={null}>
        <DismissButton onClick={() => onLeave(item.id)} />
      </Suspense>
    </div>
  );
}

function DismissButton({ onClick }: { onClick(): void }) {
  useCatalog('roomside');
  const t = useT();
  return (
    <button
      type="button"
      className="icon-button app-toast-close"
      onClick={onClick}
      aria-label={t('roomside.action.dismiss')}
    >
      <CloseIcon size={14} />
    </button>
  );
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    if (timers.current.has(id)) return;
    setItems((all) => all.map((t) => (t.id === id ? { ...t, leaving: true } : t)));
    // the slide-out runs, then the toast goes
    timers.current.set(
      id,
      setTimeout(() => {
        timers.current.delete(id);
        setItems((all) => all.filter((t) => t.id !== id));
      }, TOAST_SLIDE_OUT_MS),
    );
  }, []);
  useEffect(
    () => () => {
      for (const t of timers.current.values()) clearTimeout(t);
    },
    [],
  );

  const api = useMemo<ToastApi>(() => {
    const show = (input: ToastInput) => {
      const id = nextId.current++;
      setItems((all) => [...all, { ...input, id, leaving: false }]);
      return id;
    };
    return {
      show,
      dismiss,
      success: (message) => show({ type: 'success', message }),
      error: (message) => show({ type: 'error', message }),
      info: (message) => show({ type: 'info', message }),
    };
  }, [dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toast-stack" data-testid="toast-stack">
        {items.map((item) => (
          <ToastView key={item.id} item={item} onLeave={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}
