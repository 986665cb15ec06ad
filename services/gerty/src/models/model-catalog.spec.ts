import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_MODEL, loadModelCatalog, type CatalogSources } from './model-catalog';

const LIMITS = { concurrency: 2, maxQueued: 64 };

describe('loadModelCatalog', () => {
  let dir: string;
  let files = 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gerty-catalog-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A models file with this YAML text; its path. */
  function modelsFile(yaml: string): string {
    const path = join(dir, `models-${++files}.yaml`);
    writeFileSync(path, yaml);
    return path;
  }

  const load = (sources: Partial<CatalogSources> = {}) =>
    loadModelCatalog({ embeddingDimensions: 100, limits: LIMITS, env: {}, ...sources });

  /** The error a configuration stops the start with. */
  function failure(sources: Partial<CatalogSources>): string {
    try {
      load(sources);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the catalog loaded, but it should have refused the configuration');
  }

  describe('without configuration', () => {
    it('has only the built-in model, which embeds and completes with the default limits, and is both defaults', () => {
      const catalog = load();
      expect([...catalog.models.keys()]).toEqual([BUILTIN_MODEL]);
      expect(catalog.models.get('local')).toEqual({
        name: 'local',
        provider: 'builtin',
        embeds: true,
        completes: true,
        concurrency: 2,
        maxQueued: 64,
      });
      expect(catalog.defaultEmbeddingModel).toBe('local');
      expect(catalog.defaultCompletionModel).toBe('local');
    });

    it('ignores a GERTY_OPENAI_BASE_URL that names no model', () => {
      const catalog = load({ openAi: { baseUrl: 'http://ollama:11434/v1' } });
      expect([...catalog.models.keys()]).toEqual(['local']);
      expect(catalog.defaultCompletionModel).toBe('local');
    });
  });

  describe('GERTY_OPENAI_* shorthand', () => {
    it('adds "openai-chat" and "openai-embedding" on that endpoint, makes them the defaults, and keeps "local"', () => {
      const catalog = load({
        embeddingDimensions: 768,
        openAi: {
          baseUrl: 'http://ollama:11434/v1',
          apiKey: 'sk-operator',
          chatModel: 'llama3.1:8b',
          embeddingModel: 'nomic-embed-text',
        },
      });
      expect([...catalog.models.keys()].sort()).toEqual(['local', 'openai-chat', 'openai-embedding']);
      expect(catalog.defaultCompletionModel).toBe('openai-chat');
      expect(catalog.defaultEmbeddingModel).toBe('openai-embedding');
      expect(catalog.models.get('openai-chat')).toEqual({
        name: 'openai-chat',
        provider: 'openai',
        model: 'llama3.1:8b',
        baseUrl: 'http://ollama:11434/v1',
        apiKey: 'sk-operator',
        embeds: false,
        completes: true,
        concurrency: 2,
        maxQueued: 64,
      });
      expect(catalog.models.get('openai-embedding')).toMatchObject({
        provider: 'openai',
        model: 'nomic-embed-text',
        embeds: true,
        completes: false,
        // its answers are checked against the store's width
        dimensions: 768,
      });
      expect(catalog.models.get('local')).toMatchObject({ embeds: true, completes: true });
    });

    it('changes only the default it names: a chat model alone leaves embedding on the built-in model', () => {
      const catalog = load({ openAi: { baseUrl: 'http://vllm:8000/v1', chatModel: 'qwen2.5' } });
      expect(catalog.defaultCompletionModel).toBe('openai-chat');
      expect(catalog.defaultEmbeddingModel).toBe('local');
      expect(catalog.models.has('openai-embedding')).toBe(false);
    });
  });

  describe('a YAML models file', () => {
    const several = `
defaults:
  embedding: ollama-embed
  completion: ollama-chat
models:
  ollama-chat:
    provider: openai
    model: llama3.1:8b
    baseUrl: http://ollama:11434/v1
    concurrency: 1
    maxQueued: 4
  ollama-embed:
    provider: openai
    model: nomic-embed-text
    baseUrl: http://ollama:11434/v1
    embeds: true
    completes: false
    dimensions: 768
  cloud:
    provider: openai
    model: gpt-4o-mini
    baseUrl: https://api.openai.com/v1
    apiKeyEnv: TEST_CLOUD_KEY
`;

    it('defines every model it lists, with its own limits or the defaults, and its defaults', () => {
      const catalog = load({
        modelsFile: modelsFile(several),
        embeddingDimensions: 768,
        env: { TEST_CLOUD_KEY: 'sk-cloud-from-env' },
      });
      expect([...catalog.models.keys()].sort()).toEqual(['cloud', 'local', 'ollama-chat', 'ollama-embed']);
      expect(catalog.defaultEmbeddingModel).toBe('ollama-embed');
      expect(catalog.defaultCompletionModel).toBe('ollama-chat');
      expect(catalog.models.get('ollama-chat')).toEqual({
        name: 'ollama-chat',
        provider: 'openai',
        model: 'llama3.1:8b',
        baseUrl: 'http://ollama:11434/v1',
        embeds: false,
        completes: true,
        concurrency: 1,
        maxQueued: 4,
      });
      expect(catalog.models.get('ollama-embed')).toMatchObject({
        embeds: true,
        completes: false,
        dimensions: 768,
        concurrency: 2,
        maxQueued: 64,
      });
      // the key comes from the variable the file names, never from the file itself
      expect(catalog.models.get('cloud')).toMatchObject({
        model: 'gpt-4o-mini',
        apiKey: 'sk-cloud-from-env',
      });
      expect(catalog.models.get('local')).toMatchObject({
        provider: 'builtin',
        embeds: true,
        completes: true,
      });
    });

    it('keeps the built-in defaults when the file names none', () => {
      const catalog = load({
        modelsFile: modelsFile(
          `models:\n  chat:\n    provider: openai\n    model: m\n    baseUrl: http://x:1/v1\n`,
        ),
      });
      expect(catalog.defaultEmbeddingModel).toBe('local');
      expect(catalog.defaultCompletionModel).toBe('local');
      expect(catalog.models.get('chat')).toMatchObject({ completes: true, embeds: false });
    });

    it('gives a task a model of its own, and asks a model to think as its file says', () => {
      const catalog = load({
        modelsFile: modelsFile(`
defaults:
  completion: fast
  tasks:
    summarize: thinker
    describe_tool_call: local
models:
  fast:
    provider: openai
    model: qwen3:8b
    baseUrl: http://ollama:11434/v1
    thinking: { effort: none }
  thinker:
    provider: openai
    model: Qwen/Qwen3-32B
    baseUrl: http://vllm:8000/v1
    thinking: { enabled: true }
`),
      });
      expect(catalog.defaultCompletionModel).toBe('fast');
      expect(Object.fromEntries(catalog.taskModels)).toEqual({
        summarize: 'thinker',
        describe_tool_call: 'local',
      });
      expect(catalog.models.get('fast')!.thinking).toEqual({ effort: 'none' });
      expect(catalog.models.get('thinker')!.thinking).toEqual({ enabled: true });
      // Without a models file, every task has the completion default.
      expect(load().taskModels.size).toBe(0);
    });

    it('holds the default embedding model to the store’s width when the file does not give one', () => {
      const catalog = load({
        modelsFile: modelsFile(`
defaults:
  embedding: embed
models:
  embed:
    provider: openai
    model: text-embedding-3-small
    baseUrl: https://api.openai.com/v1
    embeds: true
    completes: false
`),
        embeddingDimensions: 1536,
      });
      expect(catalog.models.get('embed')).toMatchObject({ dimensions: 1536 });
    });
  });

  describe('refuses a bad configuration, naming the file and the problem', () => {
    it('an unreadable file or one that is not YAML', () => {
      const missing = join(dir, 'nope.yaml');
      expect(failure({ modelsFile: missing })).toMatch(new RegExp(`^GERTY_MODELS_FILE ${missing}: .*ENOENT`));
      const broken = modelsFile('models:\n  a: [unclosed\n');
      expect(failure({ modelsFile: broken })).toContain(`GERTY_MODELS_FILE ${broken}: `);
    });

    it('an unknown provider', () => {
      const path = modelsFile(
        'models:\n  mistral:\n    provider: mistral-cloud\n    model: m\n    baseUrl: http://x:1\n',
      );
      const message = failure({ modelsFile: path });
      expect(message).toContain(`GERTY_MODELS_FILE ${path}: `);
      expect(message).toContain('models.mistral.provider');
      expect(message).toMatch(/builtin.*openai/);
    });

    it('an openai model without baseUrl (or without its model id)', () => {
      const path = modelsFile('models:\n  chat:\n    provider: openai\n    model: llama3\n');
      const message = failure({ modelsFile: path });
      expect(message).toContain(`GERTY_MODELS_FILE ${path}: `);
      expect(message).toContain('models.chat');
      expect(message).toContain('an openai model needs model and baseUrl');
    });

    it('an unknown setting (a typo is not silently ignored)', () => {
      const path = modelsFile(
        'models:\n  chat:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n    concurency: 4\n',
      );
      const message = failure({ modelsFile: path });
      expect(message).toContain(`GERTY_MODELS_FILE ${path}: `);
      expect(message).toContain('concurency');
    });

    it('a key variable that is not set', () => {
      const path = modelsFile(
        'models:\n  cloud:\n    provider: openai\n    model: gpt-4o\n    baseUrl: https://api.openai.com/v1\n    apiKeyEnv: TEST_MISSING_KEY\n',
      );
      const message = failure({ modelsFile: path, env: {} });
      expect(message).toContain(`GERTY_MODELS_FILE ${path}: `);
      expect(message).toContain('cloud');
      expect(message).toContain('TEST_MISSING_KEY');
      expect(message).toContain('not set');
    });

    it('a default that names no configured model', () => {
      const path = modelsFile(
        'defaults:\n  completion: gpt-5\nmodels:\n  chat:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n',
      );
      const message = failure({ modelsFile: path });
      expect(message).toContain(`GERTY_MODELS_FILE ${path}: `);
      expect(message).toContain('default completion model "gpt-5"');
      expect(message).toMatch(/no model named|not configured/);
      // what the operator could have meant
      expect(message).toContain('chat');
      expect(message).toContain('local');
    });

    it('a default of the wrong kind', () => {
      const embedOnly =
        'models:\n  embed:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n    embeds: true\n    completes: false\n    dimensions: 100\n';
      const asCompletion = modelsFile(`defaults:\n  completion: embed\n${embedOnly}`);
      let message = failure({ modelsFile: asCompletion });
      expect(message).toContain(`GERTY_MODELS_FILE ${asCompletion}: `);
      expect(message).toContain('default completion model "embed"');
      expect(message).toContain('does not complete');

      const chatOnly = modelsFile(
        'defaults:\n  embedding: chat\nmodels:\n  chat:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n',
      );
      message = failure({ modelsFile: chatOnly });
      expect(message).toContain(`GERTY_MODELS_FILE ${chatOnly}: `);
      expect(message).toContain('default embedding model "chat"');
      expect(message).toContain('does not embed');
    });

    it('a task model that is unknown, does not complete, or a task that does not exist', () => {
      const chat = 'models:\n  chat:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n';
      let message = failure({
        modelsFile: modelsFile(`defaults:\n  tasks:\n    extract_facts: big\n${chat}`),
      });
      expect(message).toContain('default extract_facts task model "big": no model named "big"');
      expect(message).toContain('completion models: local, chat');
      message = failure({
        modelsFile: modelsFile(
          'defaults:\n  tasks:\n    summarize: embed\nmodels:\n  embed:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n    embeds: true\n    completes: false\n    dimensions: 100\n',
        ),
      });
      expect(message).toContain('default summarize task model "embed" does not complete');
      message = failure({ modelsFile: modelsFile(`defaults:\n  tasks:\n    translate: chat\n${chat}`) });
      expect(message).toContain('defaults.tasks: Unrecognized key: "translate"');
    });

    it('thinking on the built-in model, or an effort servers do not know', () => {
      let message = failure({
        modelsFile: modelsFile('models:\n  mine:\n    provider: builtin\n    thinking: { enabled: true }\n'),
      });
      expect(message).toContain('thinking is for openai models');
      message = failure({
        modelsFile: modelsFile(
          'models:\n  chat:\n    provider: openai\n    model: m\n    baseUrl: http://x:1\n    thinking: { effort: extreme }\n',
        ),
      });
      expect(message).toContain('models.chat.thinking.effort');
    });

    it('a default embedding model whose width is not EMBEDDING_DIMENSIONS', () => {
      const path = modelsFile(
        'defaults:\n  embedding: embed\nmodels:\n  embed:\n    provider: openai\n    model: nomic-embed-text\n    baseUrl: http://x:1\n    embeds: true\n    dimensions: 768\n',
      );
      const message = failure({ modelsFile: path, embeddingDimensions: 100 });
      expect(message).toContain(`GERTY_MODELS_FILE ${path}: `);
      expect(message).toContain('768');
      expect(message).toContain('100');
      expect(message).toContain('EMBEDDING_DIMENSIONS');
    });
  });
});
