export class ExtensionRuntime {}
export function loadExtensionFromFactory() {}
