/**
 * JSON Schema (the OpenAPI document's components) to the short text the docs index shows: a type per
 * field, its constraints and its description, references named rather than inlined.
 */

/** The parts of a JSON Schema the renderer reads. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** `#/components/schemas/Campaign` -> `Campaign`. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** Renders schemas of one document. */
export class SchemaRenderer {
  readonly #schemas: Record<string, Schema>;

  constructor(schemas: Record<string, Schema>) {
    this.#schemas = schemas;
  }

  /** The schema a reference points to (the schema itself when it is none). */
  resolve(schema: Schema): Schema {
    return schema.$ref ? (this.#schemas[refName(schema.$ref)] ?? {}) : schema;
  }

  /** A field's type in one line: `'once' | 'recurring'`, `Days | null`, `string (date-time)`, `CarouselCard[]`. */
  typeOf(schema: Schema): string {
    if (schema.$ref) {
      const target = this.resolve(schema);
      // A named enum reads better as its values.
      if (target.enum) return `${this.typeOf(target)} (${refName(schema.$ref)})`;
      return refName(schema.$ref);
    }
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v))).join(' | ');
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return union.map((s) => this.typeOf(s)).join(' | ');
    if (schema.allOf) return schema.allOf.map((s) => this.typeOf(s)).join(' & ');
    const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
    if (type === 'array') return `${wrap(this.typeOf(schema.items ?? {}))}[]`;
    if (type === 'object' || schema.properties) {
      if (schema.properties) return `{ ${Object.keys(schema.properties).join(', ')} }`;
      if (typeof schema.additionalProperties === 'object') return `Record<string, ${this.typeOf(schema.additionalProperties)}>`;
      return 'object';
    }
    if (type === 'null') return 'null';
    return `${type ?? 'any'}${schema.format ? ` (${schema.format})` : ''}`;
  }

  /** Bounds and default of a field, e.g. `1..100, default 10`. */
  constraints(schema: Schema): string {
    const s = this.resolve(schema);
    const parts: string[] = [];
    const range = (min: number | undefined, max: number | undefined, unit: string) => {
      if (min === undefined && max === undefined) return;
      // The contract writes MAX_SAFE_INTEGER-like bounds for plain integers: not worth showing.
      if (max !== undefined && max >= 1_000_000_000) max = undefined;
      if (min === 0 && max === undefined) return;
      if (min !== undefined && max !== undefined) parts.push(`${min}..${max}${unit}`);
      else if (min !== undefined) parts.push(`>= ${min}${unit}`);
      else if (max !== undefined) parts.push(`<= ${max}${unit}`);
    };
    range(s.minimum, s.maximum, '');
    range(s.minLength, s.maxLength, ' characters');
    range(s.minItems, s.maxItems, ' items');
    if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
    return parts.join(', ');
  }

  /** One line per property: `` - `name` string, required: description ``. */
  fields(schema: Schema, opts: { describe?: boolean } = {}): string[] {
    const s = this.resolve(schema);
    const required = new Set(s.required ?? []);
    return Object.entries(s.properties ?? {}).map(([name, prop]) => {
      const about = [this.typeOf(prop), required.has(name) ? 'required' : '', this.constraints(prop)].filter(Boolean).join(', ');
      const description = opts.describe === false ? '' : (prop.description ?? this.resolve(prop).description ?? '');
      return `- \`${name}\` ${about}${description ? `: ${oneLine(description)}` : ''}`;
    });
  }

  /** Every component a schema names, itself first, transitively. */
  componentsOf(schema: Schema, into: Set<string> = new Set()): Set<string> {
    const visit = (s: Schema | undefined) => {
      if (!s) return;
      if (s.$ref) {
        const name = refName(s.$ref);
        if (into.has(name)) return;
        into.add(name);
        visit(this.#schemas[name]);
        return;
      }
      for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? []), s.items, ...Object.values(s.properties ?? {})]) visit(sub);
      if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    };
    visit(schema);
    return into;
  }
}

const wrap = (t: string) => (t.includes(' ') ? `(${t})` : t);

/** Markdown text on one line. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
