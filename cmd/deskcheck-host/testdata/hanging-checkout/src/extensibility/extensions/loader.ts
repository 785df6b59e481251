export class ExtensionRuntime {}
