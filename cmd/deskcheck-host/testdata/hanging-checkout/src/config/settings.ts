export class Settings {}
