export class EventBus {}
