/**
 * A row of `partner_rules`: a rule of a being's partnership, unique by its text. Snake_case, as
 * Postgres names the columns; bigint ids are strings.
 */
export interface PartnerRuleRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly agent: string;
  readonly rule: string;
  readonly enabled: boolean;
  readonly created_at: Date;
  readonly updated_at: Date;
}
