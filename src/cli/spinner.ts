/**
 * Progress for long work. On a terminal: a spinner on stderr that is replaced by the final
 * line. Otherwise (pipes, CI, tests): one line when the work starts, one when it ends.
 */
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface Progress {
  /** Change the text shown next to the spinner. */
  update(text: string): void;
}

export async function withSpinner<T>(
  text: string,
  work: (progress: Progress) => Promise<T>,
  done: (result: T) => string = () => `${text} — done`,
): Promise<T> {
  const out = process.stderr;
  const animate = out.isTTY === true && !process.env.CI;
  let current = text;
  let frame = 0;
  const draw = () => {
    out.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} ${current}`);
    frame++;
  };
  let timer: NodeJS.Timeout | undefined;
  if (animate) {
    draw();
    timer = setInterval(draw, 80);
  } else {
    out.write(`${text} …\n`);
  }
  const progress: Progress = {
    update(next) {
      current = next;
      if (!animate) out.write(`  ${next}\n`);
    },
  };
  try {
    const result = await work(progress);
    if (timer) clearInterval(timer);
    out.write(`${animate ? "\r\x1b[2K" : ""}✔ ${done(result)}\n`);
    return result;
  } catch (error) {
    if (timer) clearInterval(timer);
    out.write(`${animate ? "\r\x1b[2K" : ""}✖ ${current}\n`);
    throw error;
  }
}
