/**
 * The built-in language engine: what Engram does with text when no LLM is
 * configured. Pure and deterministic; no I/O.
 *
 * - summarizeExtractive: attributed extractive summaries (LexRank + MMR).
 * - extractFacts: rule-based English fact extraction with absolute dates.
 * - describeToolCall: tool synthesis, one past-tense sentence per tool call (the task
 *   describe_tool_call).
 * - answerExtractive: a question answered by quoting the memory items that match it.
 * - attribution helpers shared with the LLM prompts.
 */
export {
  attributionPrefix,
  isoDay,
  isoMinute,
  ordinalWidthFor,
  renderPreamble,
  renderTranscriptLine,
  type AttributedLine,
  type ConversationPreamble,
} from './attribution';
export { findIdentifiers, hasIdentifier } from './identifiers';
export { splitSentences, wordsOf, contentTerms, type SentenceSpan } from './sentences';
export {
  summarizeExtractive,
  extractiveSummary,
  type ExtractiveSummary,
  type ExtractiveSummaryInput,
  type ExtractiveSummaryOptions,
  type SummaryInputLine,
  type SummaryPick,
} from './summarize/summarize-extractive';
export {
  extractFacts,
  type ExtractedFact,
  type ExtractFactsOptions,
  type FactSourceMessage,
} from './facts/extract-facts';
export {
  resolveRelativeDates,
  type DateResolution,
  type ResolvedDate,
  type ResolveDatesOptions,
} from './facts/dates';
export { describeToolCall, type DescribeToolCallOptions } from './tool-synthesis/describe-tool-call';
export {
  answerExtractive,
  NOTHING_IN_MEMORY,
  type AnswerSource,
  type ExtractiveAnswer,
  type ExtractiveAnswerOptions,
} from './answer/answer-extractive';
