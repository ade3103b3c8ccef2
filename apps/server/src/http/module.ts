/**
 * A module's routes as a named Fastify plugin (fastify-plugin), declaring what must be registered
 * before it: every module's schemas feed the API docs (@fastify/swagger collects routes as they are
 * added), and some need more (a form body parser, the sandbox pages' shared style). Registering them
 * in the wrong order stops the server at start with the missing plugin's name.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';

export interface ModuleOptions {
  ctx: AppContext;
}

export function modulePlugin(
  name: string,
  register: (app: FastifyInstance, ctx: AppContext) => void | Promise<void>,
  dependencies: string[] = [],
) {
  return fp<ModuleOptions>(
    async (app, { ctx }) => {
      await register(app, ctx);
    },
    { name: `e-wallet-${name}`, fastify: '5.x', dependencies: ['@fastify/swagger', ...dependencies] },
  );
}
