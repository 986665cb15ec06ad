// Integration suites start real servers and processes; jest's 5 s default is for unit tests.
jest.setTimeout(120_000);
