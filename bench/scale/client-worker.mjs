// The thread of a WorkerClient (worker-client.ts): makes each request it is sent on its one
// keep-alive connection and answers with the status, the time from the request's start to the
// last byte of its body, and the body when asked for (else its first bytes, for error messages).
// A request with `delayMs` starts that long after it is received, on this thread's own timer.
// Plain JavaScript: a worker thread does not get tsx's loader.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const HEAD_BYTES = 2000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const origin = new URL(workerData.origin);

parentPort.on('message', (message) => {
  if (message.close) {
    agent.destroy();
    parentPort.close();
    return;
  }
  if (message.delayMs) setTimeout(() => send(message), message.delayMs);
  else send(message);
});

function send(message) {
  const { id, method, path, headers, payload, keepBody } = message;
  const started = performance.now();
  const req = http.request(
    { agent, host: origin.hostname, port: origin.port, method, path, headers },
    (res) => {
      const chunks = [];
      let bytes = 0;
      res.on('data', (chunk) => {
        if (keepBody || bytes < HEAD_BYTES) chunks.push(chunk);
        bytes += chunk.length;
      });
      res.on('end', () => {
        const ms = performance.now() - started;
        const body = Buffer.concat(chunks);
        const kept = keepBody ? body : body.subarray(0, HEAD_BYTES);
        // A copy of its own to move: a small body may share Node's pooled buffer.
        const moved = new Uint8Array(kept);
        parentPort.postMessage(
          { id, status: res.statusCode ?? 0, ms, bytes, headers: res.headers, body: moved },
          [moved.buffer],
        );
      });
      res.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
    },
  );
  req.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
  if (payload !== undefined) req.write(payload);
  req.end();
}
