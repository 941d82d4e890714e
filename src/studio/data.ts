/**
 * What the page hands its script: the `<script type="application/json" id="studio-data">`
 * block. Types only, with no imports but the labels, so the browser client (client/, its
 * own tsconfig with the DOM library) shares them with the server.
 */
import type { StudioLang, StudioMessages } from "./i18n.ts";

/** One input of the memory config form. */
export interface StudioFieldData {
  key: string;
  kind: "boolean" | "int" | "choice" | "text";
  /** int: the smallest value. */
  min?: number;
  /** int: the largest value (the schema's bound). */
  max?: number;
  /** choice: the allowed values. */
  choices?: readonly string[];
  /** An optional key: empty means unset (sent as null). */
  optional?: boolean;
  /** Cannot be changed at run time. */
  deployTime?: boolean;
  help: Record<StudioLang, string>;
}

/** The rule of src/cli/scaffold/names.ts, for the new-project form. */
export interface ProjectNameRule {
  pattern: string;
  maxLength: number;
  reserved: readonly string[];
}

export interface StudioData {
  lang: StudioLang;
  messages: Record<StudioLang, StudioMessages>;
  fields: readonly StudioFieldData[];
  projectName: ProjectNameRule;
}

/** The id of the data block in the page. */
export const STUDIO_DATA_ID = "studio-data";
