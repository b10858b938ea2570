/**
 * OpenAPI documents written the way real APIs write them, for the renderer tests: a Petstore-like
 * 3.0 spec (servers with variables, several security schemes, shared parameters and responses,
 * allOf/oneOf with a discriminator, recursive schemas, named examples) and a 3.1 spec with
 * webhooks and type arrays. Both are bundled: every `$ref` is local.
 */

export const petstore = {
  openapi: '3.0.3',
  info: { title: 'Swagger Petstore', version: '1.0.7' },
  servers: [
    {
      url: 'https://{region}.petstore.example.com/v1',
      variables: { region: { default: 'eu', enum: ['eu', 'us'] } },
    },
    { url: 'https://sandbox.petstore.example.com/v1' },
  ],
  security: [{ bearerAuth: [] }],
  tags: [{ name: 'pets' }],
  paths: {
    '/pets': {
      get: {
        tags: ['pets'],
        summary: 'List all pets',
        operationId: 'listPets',
        description:
          'Returns the pets of the store, **newest first**.\n\nSee [paging](https://docs.example.com/paging) for how `cursor` works.',
        parameters: [
          { $ref: '#/components/parameters/LimitParam' },
          {
            name: 'status',
            in: 'query',
            description: 'Status values to filter by',
            required: true,
            schema: { type: 'string', enum: ['available', 'pending', 'sold'], default: 'available' },
          },
          {
            name: 'tags',
            in: 'query',
            description: 'Tags to filter by',
            style: 'form',
            explode: true,
            schema: { type: 'array', items: { type: 'string' } },
          },
          {
            name: 'X-Request-Id',
            in: 'header',
            required: true,
            description: 'Correlates the request in logs',
            schema: { type: 'string', format: 'uuid' },
            example: '9b2f0c1e-5a47-4c55-8d2b-2f4b4a8a1f00',
          },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'A paged array of pets',
            headers: {
              'X-Rate-Limit-Remaining': {
                description: 'Calls left in the current window',
                schema: { type: 'integer', format: 'int32', minimum: 0 },
              },
              'X-Next': { $ref: '#/components/headers/XNext' },
            },
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Pets' },
                examples: {
                  two: {
                    summary: 'Two pets',
                    value: [
                      { id: 1, name: 'Rex', status: 'available' },
                      { id: 2, name: 'Tom', status: 'sold' },
                    ],
                  },
                  none: { $ref: '#/components/examples/NoPets' },
                },
              },
            },
          },
          default: { $ref: '#/components/responses/Error' },
        },
      },
      post: {
        tags: ['pets'],
        summary: 'Create a pet',
        operationId: 'createPet',
        security: [{ petstore_auth: ['write:pets', 'read:pets'] }, { api_key: [] }],
        requestBody: { $ref: '#/components/requestBodies/Pet' },
        responses: {
          '201': {
            description: 'Created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          '405': { description: 'Invalid input' },
          default: { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/pets/{petId}': {
      parameters: [
        {
          name: 'petId',
          in: 'path',
          required: true,
          description: 'The id of the pet',
          schema: { type: 'integer', format: 'int64', minimum: 1 },
        },
      ],
      get: {
        summary: 'Find pet by ID',
        operationId: 'showPetById',
        description: 'Returns a single pet.',
        security: [{ api_key: [] }, {}],
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            description: 'Numeric ID of the pet to get',
            schema: { type: 'integer', format: 'int64' },
          },
          { name: 'fields', in: 'query', schema: { type: 'string' }, description: 'Fields to include' },
        ],
        responses: {
          '200': {
            description: 'Expected response to a valid request',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Pet' } },
              'application/xml': { schema: { $ref: '#/components/schemas/Pet' } },
            },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      delete: {
        summary: 'Deletes a pet',
        deprecated: true,
        security: [{ cookieAuth: [] }],
        responses: { '204': { description: 'Deleted' } },
      },
    },
    '/pets/{petId}/photo': {
      post: {
        summary: 'Upload a photo',
        security: [{ basicAuth: [] }],
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  caption: { type: 'string', example: 'At the beach' },
                  file: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'Uploaded' } },
      },
    },
    '/trees/{treeId}': {
      get: {
        summary: 'Get a tree',
        security: [],
        parameters: [{ name: 'treeId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'The tree',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/TreeNode' } } },
          },
        },
      },
    },
    '/animals': {
      get: {
        summary: 'A cat or a dog',
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Animal' } } },
          },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A token from `/login`.',
      },
      basicAuth: { type: 'http', scheme: 'basic' },
      api_key: { type: 'apiKey', name: 'X-API-Key', in: 'header' },
      cookieAuth: { type: 'apiKey', name: 'SESSION', in: 'cookie' },
      petstore_auth: {
        type: 'oauth2',
        flows: {
          implicit: {
            authorizationUrl: 'https://petstore.example.com/oauth/authorize',
            scopes: { 'write:pets': 'modify pets', 'read:pets': 'read your pets' },
          },
        },
      },
    },
    parameters: {
      LimitParam: {
        name: 'limit',
        in: 'query',
        description: 'How many items to return at one time (max 100)',
        required: false,
        schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20 },
      },
    },
    headers: {
      XNext: {
        description: 'A link to the next page of responses',
        schema: { type: 'string', format: 'uri' },
      },
    },
    examples: { NoPets: { summary: 'No pets', value: [] } },
    requestBodies: {
      Pet: {
        description: 'Pet object that needs to be added to the store',
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/NewPet' } },
          'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/NewPet' } },
        },
      },
    },
    responses: {
      NotFound: {
        description: 'The pet was not found',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      Error: {
        description: 'Unexpected error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    schemas: {
      NewPet: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', example: 'doggie', minLength: 1, maxLength: 64 },
          tag: { type: 'string', nullable: true },
          status: {
            type: 'string',
            description: 'pet status in the store',
            enum: ['available', 'pending', 'sold'],
          },
          category: { $ref: '#/components/schemas/Category' },
          photoUrls: { type: 'array', items: { type: 'string', format: 'uri' } },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
          birthday: { type: 'string', format: 'date' },
        },
      },
      Pet: {
        description: 'A pet of the store.',
        allOf: [
          { $ref: '#/components/schemas/NewPet' },
          {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'integer', format: 'int64', readOnly: true, example: 10 },
              owner: { $ref: '#/components/schemas/Owner' },
            },
          },
        ],
      },
      Pets: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Pet' } },
      Category: {
        type: 'object',
        properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string', example: 'Dogs' } },
      },
      Tag: {
        type: 'object',
        properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } },
      },
      Owner: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          email: { type: 'string', format: 'email' },
          password: { type: 'string', format: 'password', writeOnly: true },
          manager: { $ref: '#/components/schemas/Owner' },
        },
      },
      Error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
      },
      TreeNode: {
        type: 'object',
        properties: {
          value: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/TreeNode' } },
        },
      },
      Cat: {
        type: 'object',
        properties: {
          petType: { type: 'string' },
          huntingSkill: { type: 'string', enum: ['lazy', 'clueless'] },
        },
      },
      Dog: {
        type: 'object',
        properties: { petType: { type: 'string' }, packSize: { type: 'integer', minimum: 0, maximum: 20 } },
      },
      Animal: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'petType' },
      },
    },
  },
};

/** A 3.1 document: webhooks, `type` arrays with `null`, `examples` arrays, `const`. */
export const events = {
  openapi: '3.1.0',
  info: { title: 'Store events', version: '2.0.0' },
  webhooks: {
    newPet: {
      post: {
        summary: 'A pet was added',
        description: 'Sent to your endpoint when a pet is added to the store.',
        requestBody: {
          description: 'The new pet',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/PetEvent' } } },
        },
        responses: { '200': { description: 'Return a 200 status to acknowledge the event' } },
      },
    },
  },
  components: {
    schemas: {
      PetEvent: {
        type: 'object',
        required: ['event', 'pet'],
        properties: {
          event: { const: 'pet.created' },
          nickname: { type: ['string', 'null'], examples: ['Rexy'] },
          weight: { type: 'number', exclusiveMinimum: 0 },
          pet: { $ref: '#/components/schemas/EventPet' },
        },
      },
      EventPet: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
    },
  },
};
