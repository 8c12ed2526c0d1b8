/*
 * The POST /users body of the framework benchmark (bench/frameworks/api.js), as a class-validator DTO:
 * the decorated and the functional switchyard apps read it.
 */
import { IsInt, IsString, Length, Min } from "class-validator";

/** A user to create: a name of 1–40 characters and an integer age ≥ 0. */
export class CreateUser {
  @IsString() @Length(1, 40) name!: string;
  @IsInt() @Min(0) age!: number;
}
