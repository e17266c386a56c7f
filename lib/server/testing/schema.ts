/**
 * Test support: the models of prisma/schema.prisma as the drift checks need them (scalar columns with their type and
 * nullability, primary key, indexes, unique fields), read from the schema's text. Both migration tests compare a
 * migrated database against this: migrate.test.ts (SQLite) and migrate-postgres.test.ts (PostgreSQL).
 * Not a Prisma schema parser: just enough of the language for this project's schema (a new attribute needs a line
 * here). Prisma 7's generated client keeps no DMMF with nullability or indexes, hence the text.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const SCHEMA_FILE = path.join('prisma', 'schema.prisma');

export interface SchemaField {
  name: string;
  type: string;
  optional: boolean;
  /** Has a @default(...): the database supplies the value when an insert leaves it out. */
  hasDefault: boolean;
}

/** A relation's foreign key: this model's `fields` name `model`'s `references`. */
export interface SchemaRelation {
  fields: string[];
  model: string;
  references: string[];
  /** onDelete as written (Cascade, SetNull, ...), or null when the schema leaves Prisma's default. */
  onDelete: string | null;
}
export interface SchemaModel {
  name: string;
  fields: SchemaField[];
  id: string[];
  indexes: string[][];
  /** Fields marked @unique, and @@unique lists: Prisma names their index <Model>_<fields joined by _>_key. */
  unique: string[][];
  relations: SchemaRelation[];
}

/** Just enough of the Prisma schema language for this project: scalar fields, @id, @unique, @@id, @@unique, @@index. */
export function parseSchema(text: string = readFileSync(SCHEMA_FILE, 'utf8')): SchemaModel[] {
  const models: SchemaModel[] = [];
  const blocks = text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm);
  const parsed = [...blocks].map((m) => ({ name: m[1]!, body: m[2]! }));
  const modelNames = new Set(parsed.map((m) => m.name));
  for (const { name, body } of parsed) {
    const model: SchemaModel = { name, fields: [], id: [], indexes: [], unique: [], relations: [] };
    for (const raw of body.split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (line === '') continue;
      const list = (s: string) => s.split(',').map((x) => x.trim());
      const compoundId = /^@@id\(\[(.*?)\]\)/.exec(line);
      if (compoundId) model.id = list(compoundId[1]!);
      const index = /^@@index\(\[(.*?)\]\)/.exec(line);
      if (index) model.indexes.push(list(index[1]!));
      const unique = /^@@unique\(\[(.*?)\]\)/.exec(line);
      if (unique) model.unique.push(list(unique[1]!));
      const field = /^(\w+)\s+(\w+)(\?|\[\])?/.exec(line);
      if (!field || line.startsWith('@@')) continue;
      const [, fieldName, type, modifier] = field;
      // a relation may be named (a model's relation to itself: `@relation("Thread", fields: ...)`)
      const relation = /@relation\((?:"\w+", )?fields: \[(.*?)\], references: \[(.*?)\](?:, onDelete: (\w+))?/.exec(
        line,
      );
      if (relation) {
        model.relations.push({
          fields: list(relation[1]!),
          model: type!,
          references: list(relation[2]!),
          onDelete: relation[3] ?? null,
        });
      }
      if (modelNames.has(type!) || modifier === '[]') continue; // relation fields have no column
      model.fields.push({
        name: fieldName!,
        type: type!,
        optional: modifier === '?',
        hasDefault: /\s@default\(/.test(line),
      });
      if (/\s@id\b/.test(line)) model.id = [fieldName!];
      if (/\s@unique\b/.test(line)) model.unique.push([fieldName!]);
    }
    models.push(model);
  }
  return models;
}
