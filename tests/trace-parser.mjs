// trace-parser.mjs TRACE SQL... : loads TRACE into Perfetto's own trace
// processor (its WebAssembly build, installed by scripts/install-deps from
// the npm registry into $PMUPROBE_PERFETTO_TP) and prints, per SQL query,
// one JSON line {"columns":[...],"rows":[[...],...]}; SQL NULL (and so a
// NaN counter value, which SQLite hands out as NULL) is null.
//
// The files are Perfetto's UI build: engine_bundle.node.js (the worker that
// runs the WebAssembly module, WasmBridge) and engine.mjs (EngineBase, the
// RPC client the UI talks to it with).  They expect a web worker; this
// script gives them one: a worker's globals, a MessageChannel between the
// two ends, and a synchronous XMLHttpRequest that hands out the .wasm from
// disk (the worker build instantiates it synchronously), so nothing is
// fetched at run time.  Exits 1 with the reason on any failure.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const DEFAULT_DIR = '/usr/local/share/pmuprobe-test/perfetto-tp';

function die(msg) {
    process.stderr.write(`trace-parser: ${msg}\n`);
    process.exit(1);
}

// What the engine prints ("Loading trace", warnings) goes to stderr: stdout
// carries only the query results.
console.log = (...a) => process.stderr.write(a.join(' ') + '\n');
console.warn = console.log;
console.info = console.log;

const dir = process.env.PMUPROBE_PERFETTO_TP || DEFAULT_DIR;
const [trace, ...queries] = process.argv.slice(2);
if (!trace || queries.length === 0)
    die('usage: trace-parser.mjs TRACE SQL...');
for (const f of ['trace_processor.wasm', 'engine_bundle.node.js', 'engine.mjs'])
    if (!existsSync(path.join(dir, f)))
        die(`${path.join(dir, f)} is missing: run scripts/install-deps (as root)`);

const wasm = readFileSync(path.join(dir, 'trace_processor.wasm'));

// A web worker's globals, as the worker build checks for them.
globalThis.self = globalThis;
globalThis.WorkerGlobalScope = function WorkerGlobalScope() {};
globalThis.location = { href: pathToFileURL(dir).href + '/' };
globalThis.XMLHttpRequest = class {
    open(method, url) { this.url = String(url); }
    send() {
        if (path.basename(this.url) !== 'trace_processor.wasm')
            throw new Error(`trace-parser: refusing to fetch ${this.url}`);
        this.response = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.length);
    }
};

const { EngineBase } = await import(pathToFileURL(path.join(dir, 'engine.mjs')).href);
// Runs the worker: it builds its WasmBridge (instantiating the module) and
// waits, on self.onmessage, for the port to serve.
vm.runInThisContext(readFileSync(path.join(dir, 'engine_bundle.node.js'), 'utf8'),
                    { filename: 'engine_bundle.node.js' });
if (typeof self.onmessage !== 'function')
    die('engine_bundle.node.js did not install its worker handler');

class Engine extends EngineBase {
    mode = 'WASM';
    id = 'pmuprobe-test';
    constructor(port) {
        super();
        this.port = port;
        port.onmessage = (m) => this.onRpcResponseBytes(m.data);
    }
    rpcSendRequestBytes(data) { this.port.postMessage(data); }
}

const channel = new MessageChannel();
self.onmessage({ data: channel.port1 });
const engine = new Engine(channel.port2);

try {
    await engine.parse(new Uint8Array(readFileSync(trace)));
    await engine.notifyEof();
    for (const sql of queries) {
        const res = await engine.query(sql);
        const columns = res.columns();
        const rows = [];
        for (const it = res.iter({}); it.valid(); it.next())
            rows.push(columns.map((c) => {
                const v = it.get(c);
                return typeof v === 'bigint' ? Number(v) : v;
            }));
        process.stdout.write(JSON.stringify({ columns, rows }) + '\n');
    }
} catch (e) {
    die(`${trace}: ${e && e.message ? e.message : e}`);
}
channel.port1.close();
channel.port2.close();
