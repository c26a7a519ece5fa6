/**
 * Release notes rendered off the main thread (docs/changelogs.md "Rendering"): one worker thread,
 * started on first use and stopped after IDLE_MS without work, renders one note at a time. A note
 * that takes longer than its time limit has its worker terminated (a new one takes the next note) and
 * gets the linear plain view instead, as does a note the worker fails on. So no note, however built,
 * holds the event loop: the main thread only posts the text and receives the view.
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

interface Task {
  notes: string;
  /** performance.now() by which the render must be done, or null for RENDER_LIMIT_MS from its start. */
  deadline: number | null;
  done: (view: NotesView | null) => void;
}

const queue: Task[] = [];
let worker: Worker | null = null;
let ready = false;
let running: { task: Task; timer: NodeJS.Timeout } | null = null;
let idle: NodeJS.Timeout | null = null;

/**
 * The notes' view (at most MAX_NOTES_CHARS of them): rendered in the worker within RENDER_LIMIT_MS of
 * its start, and by `deadline` (a performance.now() time, waiting for the worker included) when given;
 * otherwise the plain view.
 */
export async function renderNotes(notes: string, deadline: number | null = null): Promise<RenderedNotes> {
  const capped = cappedNotes(notes);
  const view = await new Promise<NotesView | null>((done) => {
    queue.push({ notes: capped, deadline, done });
    next();
  });
  return view ? { ...view, plain: false } : { ...plainNotesView(capped), plain: true };
}

function next(): void {
  if (running || !queue.length) return;
  if (idle) clearTimeout(idle);
  idle = null;
  if (!worker) worker = startWorker();
  if (!ready) return;
  const task = queue.shift() as Task;
  const limit = Math.min(RENDER_LIMIT_MS, task.deadline === null ? Infinity : task.deadline - performance.now());
  if (limit <= 0) {
    task.done(null);
    next();
    return;
  }
  running = { task, timer: setTimeout(() => finish(null, true), limit) };
  worker.postMessage(task.notes);
}

/** Ends the running render with its view, or without one (its worker stopped when `stop`). */
function finish(view: NotesView | null, stop: boolean): void {
  const current = running;
  running = null;
  if (current) {
    clearTimeout(current.timer);
    current.task.done(view);
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
    if (running) finish(null, true);
    else failQueued();
  });
  return started;
}

/** A worker that fails before it is ready fails every note waiting for it (the next note tries a new one). */
function failQueued(): void {
  stopWorker();
  for (const task of queue.splice(0)) task.done(null);
}

function stopWorker(): void {
  if (idle) clearTimeout(idle);
  idle = null;
  const stopping = worker;
  worker = null;
  ready = false;
  void stopping?.terminate();
}
