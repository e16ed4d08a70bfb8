/** The benchmarks' command line: `--name value` numbers and bare `--name` switches. */
const args = process.argv.slice(2);

/** The number after `--name`, or `fallback` when the flag is absent. */
export function numberFlag(name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** Whether the bare switch `--name` was given. */
export function hasFlag(name: string): boolean {
  return args.includes(`--${name}`);
}

/** The comma-separated numbers after `--name` ("1,5,10"), or `fallback` when the flag is absent. */
export function numbersFlag(name: string, fallback: number[]): number[] {
  const i = args.indexOf(`--${name}`);
  return i >= 0
    ? String(args[i + 1])
        .split(",")
        .map(Number)
    : fallback;
}
