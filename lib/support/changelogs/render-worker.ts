/** The worker thread of ./renderer.ts: renders each note it is sent (notesView) and posts the view back. */
import { parentPort } from 'node:worker_threads';
import { markedModule } from './esm';
import { notesView } from './notes';

const port = parentPort;
if (!port) throw new Error('render-worker runs in a worker thread (./renderer.ts starts it).');
// Loaded before saying ready, so that loading never counts against a note's time limit.
markedModule();
port.on('message', (notes: string) => port.postMessage(notesView(notes)));
port.postMessage('ready');
