export class ExtensionRunner {}
