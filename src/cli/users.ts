import { openDatabase } from '../repositories/database/database.js';
import { UserRepository } from '../repositories/user-repository.js';
import { AccountService } from '../services/account-service.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../security/password.js';
import type { Config } from '../config/config.js';

/**
 * `roomcraft users set-password --email E`: gives an existing user (one made by `roomcraft keys create` has no
 * password) the password read from stdin, so that they can log in to the dashboard. Its first line is the password:
 * pipe it (`printf %s "$PASSWORD" | roomcraft users set-password --email E`), or type it at the prompt, unechoed.
 */
export async function setPassword(
  config: Config,
  email: string | undefined,
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
): Promise<number> {
  if (!email) {
    process.stderr.write('usage: roomcraft users set-password --email E   (the password is read from stdin)\n');
    return 2;
  }
  const password = input.isTTY ? await promptHidden(input as NodeJS.ReadStream, 'Password: ') : await firstLine(input);
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    process.stderr.write(`A password has ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters; nothing was changed.\n`);
    return 2;
  }
  const database = await openDatabase(config);
  try {
    if (!(await new AccountService(new UserRepository(database.db)).setPassword(email, password))) {
      process.stderr.write(`no user ${email}; make one with roomcraft keys create --email ${email} --kind test\n`);
      return 1;
    }
  } finally {
    await database.close();
  }
  process.stdout.write(`${email} can now log in to the dashboard with this password.\n`);
  return 0;
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** Reads one line from a terminal without showing it: raw mode, Enter ends it, Backspace erases, Ctrl-C gives up. */
function promptHidden(input: NodeJS.ReadStream, prompt: string): Promise<string> {
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  return new Promise((resolve) => {
    let typed = '';
    const onData = (chars: string) => {
      for (const char of chars) {
        if (char === '\r' || char === '\n' || char === '\u0003') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stderr.write('\n');
          // Ctrl-C gives nothing, which the length check refuses.
          resolve(char === '\u0003' ? '' : typed);
          return;
        }
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
