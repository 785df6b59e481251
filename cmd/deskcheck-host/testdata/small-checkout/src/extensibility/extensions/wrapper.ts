/* code */
export class ExtensionToolWrapper {}
