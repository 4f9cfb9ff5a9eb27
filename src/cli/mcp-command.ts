import type { Command } from 'commander';

export function registerMcpCommands(program: Command): void {
  program
    .command('mcp')
    .description('serve the Model Context Protocol on stdio for an AI assistant, acting for one account (its plan and rate limit)')
    .requiredOption('--email <email>', 'the account the assistant acts for')
    .action(async (o: { email: string }) => {
      // loaded here, not with the CLI: it is the whole app, which every other command would pay for
      const { serveMcpStdio } = await import('./mcp-stdio.js');
      await serveMcpStdio(o.email);
    });
}
