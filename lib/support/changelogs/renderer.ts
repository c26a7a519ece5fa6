/**
 * Release notes rendered off the main thread (docs/changelogs.md "Rendering"): one worker thread,
 * started on first use and stopped after IDLE_MS without work, renders one note at a time. A note
 * that takes longer than its time limit has its worker terminated (a new one takes the next note) and
 * gets the linear plain view instead, as does a note the worker fails on. So no note, however built,
 * holds the event loop: the main thread only posts the text and receives the view. A note its caller's
 * deadline left unrendered (waiting for the worker, or cut short) gets no view: that says nothing of
 * the note, so the caller must not store it as plain.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { NotesView, cappedNotes, plainNotesView } from './notes';

/** How long one note may take to render: a real note of the largest size (MAX_NOTES_CHARS) takes 0.2 to 0.9 s. */
export const RENDER_LIMIT_MS = 2_000;

const IDLE_MS = 30_000;

export interface RenderedNotes extends NotesView {
  /** The markdown could not be rendered in time: the plain view (escaped paragraphs) stands in. */
  plain: boolean;
}

/** A render's outcome: the view, the note itself too slow (or failing) to render, or no render in time. */
type Outcome = NotesView | 'too_slow' | 'unrendered';

interface Task {
  notes: string;
  /** performance.now() by which the render must be done, or null for RENDER_LIMIT_MS from its start. */
  deadline: number | null;
  done: (outcome: Outcome) => void;
}

const queue: Task[] = [];
let worker: Worker | null = null;
let ready = false;
/** The running render, and what its timer means: the note's own limit, or its caller's deadline first. */
let running: { task: Task; timer: NodeJS.Timeout; cutBy: 'too_slow' | 'unrendered' } | null = null;
let idle: NodeJS.Timeout | null = null;

/**
 * The notes' view (at most MAX_NOTES_CHARS of them): rendered in the worker within RENDER_LIMIT_MS of
 * its start, else the plain view. Null when it was not rendered by `deadline` (a performance.now()
 * time, waiting for the worker included) or no worker could start.
 */
export async function renderNotes(notes: string, deadline: number | null = null): Promise<RenderedNotes | null> {
  const capped = cappedNotes(notes);
  const outcome = await new Promise<Outcome>((done) => {
    queue.push({ notes: capped, deadline, done });
    next();
  });
  if (outcome === 'unrendered') return null;
  return outcome === 'too_slow' ? plainRendered(notes) : { ...outcome, plain: false };
}

/** The plain view of notes (cut at MAX_NOTES_CHARS), built in linear time on this thread. */
export function plainRendered(notes: string): RenderedNotes {
  return { ...plainNotesView(cappedNotes(notes)), plain: true };
}

function next(): void {
  if (running || !queue.length) return;
  if (idle) clearTimeout(idle);
  idle = null;
  if (!worker) worker = startWorker();
  if (!ready) return;
  const task = queue.shift() as Task;
  const left = task.deadline === null ? Infinity : task.deadline - performance.now();
  if (left <= 0) {
    task.done('unrendered');
    next();
    return;
  }
  const cutBy = left < RENDER_LIMIT_MS ? 'unrendered' : 'too_slow';
  running = { task, cutBy, timer: setTimeout(() => finish(null, true), Math.min(RENDER_LIMIT_MS, left)) };
  worker.postMessage(task.notes);
}

/** Ends the running render with its view, or without one (its worker stopped when `stop`). */
function finish(view: NotesView | null, stop: boolean): void {
  const current = running;
  running = null;
  if (current) {
    clearTimeout(current.timer);
    current.task.done(view ?? current.cutBy);
  }
  if (stop) stopWorker();
  if (queue.length) next();
  else if (worker) idle = setTimeout(stopWorker, IDLE_MS).unref();
}

function startWorker(): Worker {
  const file = path.join(__dirname, `render-worker${path.extname(__filename)}`);
  // Under tsx (the tests) the worker needs tsx's loader to read TypeScript; from dist/ it is plain JS.
  const started = file.endsWith('.ts')
    ? new Worker(`require(require('node:module').createRequire(${JSON.stringify(file)}).resolve('tsx/cjs')); require(${JSON.stringify(file)});`, { eval: true })
    : new Worker(file);
  started.unref();
  started.on('message', (message: NotesView | 'ready') => {
    // A worker stopped for its time limit may still answer before it ends.
    if (worker !== started) return;
    if (message !== 'ready') return finish(message, false);
    ready = true;
    next();
  });
  // An exception in marked ends the worker: that note gets the plain view, the next a new worker.
  started.on('error', () => {
    if (worker !== started) return;
    if (running) {
      running.cutBy = 'too_slow';
      finish(null, true);
    } else failQueued();
  });
  return started;
}

/** A worker that fails before it is ready leaves every note waiting for it unrendered (the next note tries a new one). */
function failQueued(): void {
  stopWorker();
  for (const task of queue.splice(0)) task.done('unrendered');
}

function stopWorker(): void {
  if (idle) clearTimeout(idle);
  idle = null;
  const stopping = worker;
  worker = null;
  ready = false;
  void stopping?.terminate();
}
