/** What one worker process is made of. */
export interface WorkerConfigInput {
  /** File name of the script, beside the config file. */
  scriptFile: string;
  compatibilityDate: string;
  /** Unix socket workerd listens on for events. */
  listenSocket: string;
  /** Unix socket of Quire's gateway, where every fetch() of the script goes. */
  gatewaySocket: string;
  /** V8 heap limit of the isolate. */
  memoryMb: number;
}

/**
 * The workerd configuration (Cap'n Proto text) of one integration version: one isolate, one
 * socket, no network. The script's global fetch() goes to Quire's gateway (HTTP proxy style,
 * so the full URL arrives), and the implicit "internet" service is replaced by a network that
 * allows nothing, so neither fetch() nor connect() reaches anything else.
 */
export function workerConfig(input: WorkerConfigInput): string {
  const text = (value: string) => JSON.stringify(value);
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = (
      modules = [(name = "index.js", esModule = embed ${text(input.scriptFile)})],
      compatibilityDate = ${text(input.compatibilityDate)},
      globalOutbound = "gateway",
    )),
    (name = "gateway", external = (address = ${text(`unix:${input.gatewaySocket}`)}, http = (style = proxy))),
    (name = "internet", network = (allow = [])),
  ],
  sockets = [(name = "events", address = ${text(`unix:${input.listenSocket}`)}, http = (), service = "main")],
  v8Flags = [${text(`--max-old-space-size=${input.memoryMb}`)}],
);
`;
}
