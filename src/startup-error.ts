/** An expected reason not to start: one line saying what is wrong and what to do (the CLI prints it alone). */
export class StartupError extends Error {}
