export * from './scene';
export * from './decay';
export * from './vectors';
export * from './clusters';
export * from './recall';
