import type { Type as TypeDecorator } from "class-transformer";
import { IsInt, IsString, ValidateNested } from "class-validator";
import { Body, controllers, Route } from "../../decorators";
import { inject, type InjectResponse } from "../../src";

/*
 * A controller the DTO tests share, made when called, so that a test can first hand its libraries
 * over (provideLibraries).
 */

/**
 * `POST /people` taking a `Person` whose `address` is a nested `Address` through `type` (the `@Type`
 * of whichever class-transformer copy the test hands over); it answers whether the address arrived as
 * an `Address`, and its city.
 */
export function nestedPeople(type: typeof TypeDecorator): {
  readonly Person: Function;
  readonly post: (body: unknown) => Promise<InjectResponse>;
} {
  class Address {
    @IsString() city!: string;
  }
  class Person {
    @IsInt() age!: number;
    @ValidateNested() @type(() => Address) address!: Address;
  }
  class People {
    @Route("POST /people")
    create(@Body() person: Person) {
      return { nested: person.address instanceof Address, city: person.address.city };
    }
  }
  const app = controllers([People]);
  const post = (body: unknown) =>
    inject(app, {
      method: "POST",
      url: "/people",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return { Person, post };
}
