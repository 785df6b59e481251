// A checkout that never finishes loading: it says it is running (a file in
// its temporary folder, the only one it can write) and waits for ever.
await Bun.write(`${process.env.TMPDIR}/running`, "");
await new Promise(() => setInterval(() => {}, 1 << 30));
export class ExtensionToolWrapper {}
