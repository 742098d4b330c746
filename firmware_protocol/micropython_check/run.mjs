// Run Python files under MicroPython (WebAssembly port) in Node:
//   node run.mjs <dir> <main.py>
// Copies every .py and .json file of <dir> into MicroPython's filesystem root, then runs <main.py>.
// Prints what MicroPython prints; exits 1 if the script raised.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const [dir, main] = process.argv.slice(2);
const mp = await loadMicroPython({
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
for (const name of readdirSync(dir)) {
  if (name.endsWith(".py") || name.endsWith(".json")) {
    mp.FS.writeFile("/" + name, readFileSync(join(dir, name)));
  }
}
try {
  mp.runPython("import sys\nprint(sys.implementation.name, sys.version)\n" + readFileSync(join(dir, main), "utf8"));
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
