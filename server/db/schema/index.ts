export * from './organizations';
export * from './access-groups';
export * from './users';
export * from './settings';
export * from './identity';
