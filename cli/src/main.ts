import { readdirSync, readFileSync } from 'node:fs';
import { CliError, UsageError, type Command } from './kit.ts';

const COMMANDS_DIR = new URL('./commands/', import.meta.url);

function commandNames(): string[] {
  return readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function loadCommand(name: string): Promise<Command | undefined> {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !commandNames().includes(name)) return undefined;
  const mod = (await import(new URL(`${name}.ts`, COMMANDS_DIR).href)) as { command: Command };
  return mod.command;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function overview(): Promise<string> {
  const lines = ['pcp — Page Completion Profiler', '', 'usage: pcp <command> [options]   (pcp <command> --help for details)', '', 'commands:'];
  for (const name of commandNames()) {
    const c = await loadCommand(name);
    if (c) lines.push(`  ${name.padEnd(10)} ${c.summary}`);
  }
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await overview());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    console.log(version());
    return 0;
  }
  const cmd = await loadCommand(name);
  if (!cmd) {
    console.error(`pcp: unknown command '${name}' (see pcp --help)`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(cmd.usage.trim());
    return 0;
  }
  try {
    return (await cmd.run(rest)) ?? 0;
  } catch (e) {
    if (process.env.PCP_DEBUG) console.error(e);
    if (e instanceof UsageError) {
      console.error(`pcp ${name}: ${e.message} (see pcp ${name} --help)`);
      return 2;
    }
    const msg = e instanceof Error ? e.message : String(e);
    console.error(`pcp ${name}: ${e instanceof CliError ? oneLine(msg) : firstLine(msg)}`);
    return 1;
  }
}

/** Multi-line details (a JSON parser quoting the input, a child's stderr) folded onto one line. */
function oneLine(s: string): string {
  return s.trim().replace(/\s*\n\s*/g, ' ');
}

function firstLine(s: string): string {
  return s.split('\n', 1)[0] ?? s;
}

export { CliError, UsageError };
