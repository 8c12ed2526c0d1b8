import { Body, controllers, Route } from "../../decorators";

/*
 * A controller taking a DTO class, for the tests where a DTO library is mocked missing: this file
 * imports neither library, so it loads there.
 */

/** Makes a controller whose `POST /items` takes a DTO class (with no constraints): what startup checks. */
export function startWithDtoClass(): void {
  class CreateItem {
    name!: string;
  }
  class Items {
    @Route("POST /items")
    create(@Body() _item: CreateItem) {}
  }
  controllers([Items]);
}
