/**
 * docs/architecture.md cannot drift: its tree names only what exists and its `{...}` lists are exactly
 * what their folders hold; its "Adding a money call" example calls only functions that exist with that
 * many arguments and declares only fields the pipeline knows; every path it quotes exists.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT, read } from './repo.ts';

const DOC = read('docs/architecture.md');

interface TreeEntry {
  path: string;
  /** The folder's whole contents as the tree lists them between braces, or null. */
  list: string[] | null;
}

/** The tree: the first fenced block; a path at indent 0 or 2 (2 is under the last 0), descriptions after. */
function tree(): TreeEntry[] {
  const block = /```\n([\s\S]*?)```/.exec(DOC)![1];
  const entries: { path: string; text: string }[] = [];
  let parent = '';
  for (const line of block.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const [token] = line.trim().split(/\s+/);
    if (!token) continue;
    if (indent === 0 || indent === 2) {
      const path = indent === 0 ? token : parent + token;
      if (indent === 0) parent = token;
      entries.push({ path, text: line.slice(indent + token.length) });
    } else entries[entries.length - 1].text += ` ${line.trim()}`;
  }
  return entries.map(({ path, text }) => {
    const braces = /\{([^}]*)\}/.exec(text);
    return { path, list: braces ? braces[1].split(',').map((name) => name.trim()) : null };
  });
}

/** A folder's contents as a tree lists them: tests and type declarations aside, extensions dropped. */
function contents(folder: string): string[] {
  return readdirSync(join(ROOT, folder))
    .filter((name) => !/\.(test|spec)\.[jt]sx?$|\.d\.ts$/.test(name) && !name.startsWith('.'))
    .filter((name) => !['node_modules', 'dist', 'data'].includes(name))
    .map((name) => name.replace(/\.[a-z]+$/, ''))
    .sort();
}

describe('docs/architecture.md: the tree', () => {
  const entries = tree();

  it('names only paths that exist', () => {
    const missing = entries.map((entry) => entry.path).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing, 'paths in the tree that do not exist').toEqual([]);
  });

  it("lists exactly each listed folder's contents", () => {
    for (const { path, list } of entries.filter((entry) => entry.list)) {
      expect([...list!].sort(), `the list of ${path}`).toEqual(contents(path));
    }
  });

  it('names every folder of the repository', () => {
    const named = new Set(entries.map((entry) => entry.path.split('/')[0]));
    const folders = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .filter((name) => !['node_modules', 'data', 'dist', 'coverage', 'test-results'].includes(name));
    expect(folders.filter((name) => !named.has(name))).toEqual([]);
  });

  it('names every path it quotes that exists', () => {
    const bases = ['', 'apps/server/src/', 'apps/server/', 'apps/web/src/', 'apps/backoffice/src/'];
    const quoted = [...DOC.matchAll(/`([\w./-]+\/[\w.-]*)`/g)]
      .map((match) => match[1])
      .filter((path) => /\.(ts|tsx|sql|css)$|\/$/.test(path));
    const missing = quoted.filter((path) => !bases.some((base) => existsSync(join(ROOT, base + path))));
    expect(missing, 'paths quoted in docs/architecture.md that do not exist').toEqual([]);
  });
});

/** The server's and the contract's code, each file parsed once (tests aside). */
const parsed = new Map<string, ts.SourceFile>();
function sourcesOf(...folders: string[]): ts.SourceFile[] {
  return filesUnder(...folders)
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
    .map((path) => {
      if (!parsed.has(path))
        parsed.set(path, ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true));
      return parsed.get(path)!;
    });
}

/** Every function declared in the server's and the contract's code, with the arguments it accepts. */
function declarations(): Map<string, { min: number; max: number }[]> {
  const found = new Map<string, { min: number; max: number }[]>();
  const add = (name: string, parameters: ts.NodeArray<ts.ParameterDeclaration>) => {
    const min = parameters.filter((p) => !p.initializer && !p.questionToken && !p.dotDotDotToken).length;
    const max = parameters.some((p) => p.dotDotDotToken) ? Number.POSITIVE_INFINITY : parameters.length;
    found.set(name, [...(found.get(name) ?? []), { min, max }]);
  };
  for (const source of sourcesOf('apps/server/src', 'packages/contract/src')) {
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) && node.name) add(node.name.text, node.parameters);
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
      )
        add(node.name.text, node.initializer.parameters);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The members of an interface declared in the server's code. */
function membersOf(name: string): string[] {
  for (const source of sourcesOf('apps/server/src')) {
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement) && statement.name.text === name)
        return statement.members.flatMap((member) =>
          member.name && ts.isIdentifier(member.name) ? [member.name.text] : [],
        );
    }
  }
  throw new Error(`no interface ${name} in apps/server/src`);
}

/** The contract's entries: `name: def(` in any file of the contract. */
function contractCalls(): Set<string> {
  const names = new Set<string>();
  for (const path of filesUnder('packages/contract/src')) {
    for (const match of read(path).matchAll(/^\s*(\w+): def\(/gm)) names.add(match[1]);
  }
  return names;
}

describe('docs/architecture.md: adding a money call', () => {
  const section = DOC.slice(
    DOC.indexOf('### Adding a money call'),
    DOC.indexOf('\n## ', DOC.indexOf('### Adding a money call')),
  );
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
  const example = ts.createSourceFile('example.ts', blocks.join('\n'), ts.ScriptTarget.Latest, true);
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(example);
  const named = (name: string) => calls.filter((call) => (call.expression as ts.Identifier).text === name);
  const fieldsOf = (call: ts.CallExpression, argument: number) => {
    const object = call.arguments[argument];
    expect(object && ts.isObjectLiteralExpression(object)).toBe(true);
    return (object as ts.ObjectLiteralExpression).properties.flatMap((property) =>
      property.name && ts.isIdentifier(property.name) ? [property.name.text] : [],
    );
  };

  it('declares a money call and its release work', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(named('moneyCall')).toHaveLength(1);
    expect(named('onRelease')).toHaveLength(1);
  });

  it('calls only functions that exist, with as many arguments as they take', () => {
    const declared = declarations();
    const wrong = calls.flatMap((call) => {
      const name = (call.expression as ts.Identifier).text;
      const count = call.arguments.length;
      const fits = (declared.get(name) ?? []).some(({ min, max }) => min <= count && count <= max);
      return fits ? [] : [`${name} with ${count} arguments`];
    });
    expect(wrong, 'calls in the example with no such function').toEqual([]);
  });

  it("declares only MoneyCall's and ReleaseWork's fields, antifraud among them", () => {
    const call = fieldsOf(named('moneyCall')[0], 1);
    expect(call).toContain('antifraud');
    expect(call.filter((field) => !membersOf('MoneyCall').includes(field))).toEqual([]);
    const release = fieldsOf(named('onRelease')[0], 1);
    expect(release.filter((field) => !membersOf('ReleaseWork').includes(field))).toEqual([]);
  });

  it('is a call of the contract, declared in the module the page names', () => {
    const file = /`(apps\/server\/src\/modules\/[\w-]+\/[\w-]+\.ts)`/.exec(section)![1];
    const name = /call: '(\w+)'/.exec(blocks.join('\n'))![1];
    expect(contractCalls().has(name), `the contract's entry ${name}`).toBe(true);
    const module = read(file);
    expect(module).toContain(`call: '${name}'`);
    expect(module).toContain(`onRelease('${name}'`);
  });
});
