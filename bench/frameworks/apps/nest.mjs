/*
 * Child process of the framework benchmark: the API (bench/frameworks/api.js) as NestJS 12 controllers
 * with the ValidationPipe (class-validator DTO) and ParseIntPipe, on Fastify or Express; prints its port.
 * Usage: node bench/frameworks/apps/nest.mjs <fastify|express>
 */
import {
  Body,
  Controller,
  Delete,
  Get,
  Module,
  Param,
  ParseIntPipe,
  Patch,
  Post,
  Put,
  Query,
  ValidationPipe,
} from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { fillerController, Users } from "./controllers.js";
import { CreateUser } from "./create-user.js";
import { decorateClass, decorateMethod } from "./decorate.js";

decorateMethod(Users, "byId", { decorators: [Get(":id")], params: [[Param("id", ParseIntPipe)]], types: [Number] });
decorateMethod(Users, "list", { decorators: [Get()], params: [[Query("page", ParseIntPipe)]], types: [Number] });
decorateMethod(Users, "create", { decorators: [Post()], params: [[Body()]], types: [CreateUser] }); // @Post answers 201
decorateClass(Users, Controller("users"));

const Filler = fillerController({ GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete });
decorateClass(Filler, Controller());

class AppModule {}
decorateClass(AppModule, Module({ controllers: [Users, Filler] }));

const platform = process.argv[2];
let app;
if (platform === "fastify") {
  const { FastifyAdapter } = await import("@nestjs/platform-fastify");
  app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false });
} else if (platform === "express") {
  app = await NestFactory.create(AppModule, { logger: false });
} else {
  throw new Error(`unknown platform ${platform}; fastify or express`);
}
app.useGlobalPipes(new ValidationPipe());
await app.listen(0, "127.0.0.1");
process.stdout.write(`${app.getHttpServer().address().port}\n`);
